import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsoleClient } from '../support/console';
import { csrfOf } from '../support/dashboard';
import { UNLIMITED_RATE } from '../support/reliability-profile';
import { ServiceClient, Tenant } from '../support/service-client';
import type { ServiceProcess } from '../support/service-process';
import { startServiceProcess } from '../support/service-start';

/**
 * The scaled topology of docs/operations.md as real processes on one embedded DATA_DIR: one
 * projector (PROJECTIONS=inline) and two API replicas (PROJECTIONS=external). Checks what an
 * operator and a load balancer rely on:
 *
 * - a write through any process is read back at once through any other (read-your-writes across
 *   processes: 0 stale reads);
 * - a command through one process is decided on what the others wrote, although each decides
 *   first on the states it holds in memory;
 * - every /ready is 200 after thousands of events (replicas judge the projector's stored
 *   checkpoints, not their own engine, which never runs);
 * - a rebuild or verify sent to a replica is refused (409) and loses nothing: every project still
 *   answers everywhere, and verify on the projector finds 0 differences;
 * - after kill -9 of the projector, writes through the replicas commit (answered `pending`) and
 *   are readable everywhere within seconds of its restart;
 * - after kill -9 of a replica in the middle of writes, every acknowledged write is there.
 */

const ADMIN_TOKEN = 'topology-admin-token-0123456789abcdef';
const ENV = { ADMIN_TOKEN, LOG_LEVEL: 'silent', ...UNLIMITED_RATE };
/** Replicas answer `pending` after this when the projector is down (the default 10 s would only slow the suite). */
const REPLICA_ENV = { ...ENV, PROJECTIONS: 'external', READ_YOUR_WRITES_TIMEOUT_MS: '1500' };
/** Events written before /ready is judged: thousands, so the checkpoints are real ones well past the start. */
const MIN_EVENTS = 1_600;

jest.setTimeout(120_000);

describe('Topology: one projector and two replicas on one DATA_DIR', () => {
  let dir: string;
  let projector: ServiceProcess;
  const replicas: ServiceProcess[] = [];
  const clients = (): ServiceClient[] => [projector, ...replicas].map((p) => new ServiceClient(p.baseUrl, ADMIN_TOKEN));
  let tenants: Tenant[];
  /** Every acknowledged project: id -> its last acknowledged name. */
  const projects = new Map<string, { tenant: Tenant; name: string }>();
  let serial = 0;

  const startProjector = () => startServiceProcess({ ...ENV, DATA_DIR: dir, PROJECTIONS: 'inline' });
  const startReplica = () => startServiceProcess({ ...REPLICA_ENV, DATA_DIR: dir });

  async function createProject(via: ServiceClient, tenant: Tenant) {
    const name = `P${serial++}`;
    const res = await via.call('POST', '/v1/projects', tenant.fullKey, {
      name,
      description: 'topology',
      status: 'draft',
      start_date: '2026-01-01',
    });
    if (res.status !== 201) throw new Error(`POST /v1/projects via ${via.baseUrl}: ${res.status} ${res.text}`);
    projects.set(res.body.id, { tenant, name });
    return res;
  }

  /** Projects acknowledged but not answered (or answered with another name) by `via`. */
  async function missingThrough(via: ServiceClient): Promise<string[]> {
    const missing: string[] = [];
    const ids = [...projects.keys()];
    for (let i = 0; i < ids.length; i += 50) {
      const answers = await Promise.all(
        ids.slice(i, i + 50).map((id) => via.call('GET', `/v1/projects/${id}`, projects.get(id)!.tenant.readKey)),
      );
      answers.forEach((res, j) => {
        const id = ids[i + j];
        if (res.status !== 200 || res.body.name !== projects.get(id)!.name) missing.push(id);
      });
    }
    return missing;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-topology-'));
    projector = await startProjector();
    replicas.push(await startReplica(), await startReplica());
    // Tenants made through different processes: the keys authenticate everywhere at once.
    const [p, a, b] = clients();
    tenants = [
      await p.provision({ name: 'T0' }),
      await a.provision({ name: 'T1' }),
      await b.provision({ name: 'T2' }),
      await a.provision({ name: 'T3' }),
    ];
  });

  afterAll(async () => {
    for (const process of [...replicas, projector]) await process?.stop('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads a write through any process back at once through any other (0 stale reads)', async () => {
    const all = clients();
    let stale = 0;
    let last: string | null = null;
    const writes = 300;
    for (let i = 0; i < writes; i++) {
      const writer = all[i % 3];
      const reader = all[(i + 1 + (Math.floor(i / 3) % 2)) % 3];
      const tenant = tenants[i % tenants.length];
      if (i % 4 === 3 && last) {
        // An update of the last project made (through another process): the old name would be stale.
        const [id, project] = [last, projects.get(last)!];
        const name = `${project.name}-renamed-${i}`;
        const res = await writer.call('PATCH', `/v1/projects/${id}`, project.tenant.fullKey, { name });
        expect(res.status).toBe(200);
        expect(res.headers['x-read-consistency']).toBeUndefined();
        project.name = name;
        const read = await reader.call('GET', `/v1/projects/${id}`, project.tenant.readKey);
        if (read.status !== 200 || read.body.name !== name) stale++;
      } else {
        const created = await createProject(writer, tenant);
        last = created.body.id;
        expect(created.headers['x-read-consistency']).toBeUndefined();
        const read = await reader.call('GET', `/v1/projects/${created.body.id}`, tenant.readKey);
        if (read.status !== 200 || read.body.name !== projects.get(created.body.id)!.name) stale++;
      }
    }
    expect(stale).toBe(0);
  });

  it('decides a command on what the other processes wrote, not on the states it held (0 lost or stale decisions)', async () => {
    const all = clients();
    const [p, a, b] = all;
    const tenant = tenants[0];
    const project = (await createProject(p, tenant)).body.id;
    const created = await p.call('POST', `/v1/projects/${project}/jobs`, tenant.fullKey, {
      name: 'Held',
      type: 'drone_inspection',
      job_pattern: 'one_time',
      start_date: new Date().toISOString().slice(0, 10),
    });
    expect(created.status).toBe(201);
    const job = `/v1/projects/${project}/jobs/${created.body.id}`;
    // Every process now holds the project's and the job's states in memory.
    for (const via of all)
      expect((await via.call('PATCH', job, tenant.fullKey, { priority: 'high' })).status).toBe(200);

    // Changed through one process, then set back through another, which held the old name: for the
    // second, sending what it held is a change to write, not a no-op.
    expect((await a.call('PATCH', job, tenant.fullKey, { name: 'Changed through a replica' })).status).toBe(200);
    const back = await b.call('PATCH', job, tenant.fullKey, { name: 'Held' });
    expect(back.status).toBe(200);
    expect((await p.call('GET', job, tenant.readKey)).body.name).toBe('Held');

    // The project deleted through one process: the others, which held it live, refuse the job's
    // change and write nothing.
    expect((await a.call('DELETE', `/v1/projects/${project}`, tenant.fullKey)).status).toBe(204);
    projects.delete(project);
    for (const via of [p, b]) {
      const refused = await via.call('PATCH', job, tenant.fullKey, { name: 'After the delete' });
      expect(refused).toMatchObject({ status: 404, body: { message: 'Project not found' } });
    }
    // The job's stream, as an auditor exports it: the changes above in order, nothing after the delete.
    const exported = await p.admin('GET', `/events/export?stream=job-${created.body.id}`);
    expect(exported.status).toBe(200);
    const events = exported.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => [e.type, e.data.changes?.name])).toEqual([
      ['job.created', undefined],
      ['job.updated', undefined], // priority, through the first process to hold the job
      ['job.updated', 'Changed through a replica'],
      ['job.updated', 'Held'],
      ['job.deleted', undefined],
    ]);
  });

  it('answers /ready 200 on all three after thousands of events, with the projector’s real checkpoints', async () => {
    const all = clients();
    // Eight writers at once, spread over the three processes, until the store holds enough events.
    let head = 0;
    while (head < MIN_EVENTS) {
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = 0; i < 25; i++) await createProject(all[(w + i) % 3], tenants[(w + i) % tenants.length]);
        }),
      );
      head = (await all[1].expectAdmin('GET', '/projections', undefined, 200)).projections[0].head;
    }
    for (const client of all) {
      const ready = await client.request({ method: 'GET', path: '/ready' });
      expect({ url: client.baseUrl, status: ready.status, checks: ready.body.checks }).toEqual({
        url: client.baseUrl,
        status: 200,
        checks: { event_store: 'ok', read_models: 'ok', projections: 'ok' },
      });
      const status = await client.expectAdmin('GET', '/projections', undefined, 200);
      expect(status.role).toBe(client === all[0] ? 'projector' : 'replica');
      for (const p of status.projections) {
        expect(p.checkpoint).toBeGreaterThanOrEqual(head);
        expect(p.lag).toBe(0);
      }
      const metrics = await client.request({ method: 'GET', path: '/metrics' });
      expect(metrics.text).toMatch(/projection_lag_events\{projection="projects"\} 0\n/);
    }
  });

  it('refuses a rebuild, a verify and dead-letter operations on a replica (409), and loses nothing', async () => {
    const [p, a, b] = clients();
    const before = projects.size;
    for (const replica of [a, b]) {
      for (const body of [{}, { name: 'projects' }]) {
        const rebuild = await replica.admin('POST', '/projections/rebuild', body);
        expect(rebuild.status).toBe(409);
        expect(rebuild.body.message).toMatch(/runs only on the projector.*PROJECTIONS=inline/);
      }
      expect((await replica.admin('POST', '/events/verify')).status).toBe(409);
      expect((await replica.admin('POST', '/projections/dead-letters/projects/1/retry')).status).toBe(409);
      expect((await replica.admin('POST', '/projections/dead-letters/projects/1/skip')).status).toBe(409);
    }
    expect(projects.size).toBe(before);
    for (const client of [p, a, b]) expect(await missingThrough(client)).toEqual([]);
    const verify = await p.admin('POST', '/events/verify');
    expect(verify.status).toBe(200);
    expect(verify.body.differences).toEqual([]);

    // The same rebuild on the projector runs, while the replicas keep serving.
    expect((await p.admin('POST', '/projections/rebuild', { name: 'projects' })).status).toBe(202);
    for (let state = ''; state !== 'done'; await new Promise((r) => setTimeout(r, 100))) {
      state = (await p.expectAdmin('GET', '/projections', undefined, 200)).projections.find(
        (x: { name: string }) => x.name === 'projects',
      ).rebuild.state;
      expect(state).not.toBe('failed');
    }
    for (const client of [a, b]) expect(await missingThrough(client)).toEqual([]);
  });

  it('the console served by a replica shows the projector’s projections and refuses its actions as the operator API does', async () => {
    const [p, ...onReplicas] = clients();
    const projector = (await p.expectAdmin('GET', '/projections', undefined, 200)).projections;
    const escape = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;');
    for (const replica of onReplicas) {
      const console_ = new ConsoleClient(replica.baseUrl);
      const cookie = await console_.signIn(ADMIN_TOKEN);
      const page = await console_.page('GET', '/console/projections', { cookie });
      expect(page.status).toBe(200);
      expect(page.html).toContain('This process is an API replica');
      const live = JSON.parse((await console_.page('GET', '/console/projections/live', { cookie })).html);
      expect(live.fields.role).toBe('replica');
      for (const { name, checkpoint } of projector)
        expect({ name, checkpoint: live.fields[`${name}.checkpoint`] }).toEqual({
          name,
          checkpoint: checkpoint.toLocaleString('en'),
        });
      const form = { _csrf: csrfOf(page.html) };
      for (const [path, apiPath] of [
        ['/console/projections/rebuild', '/projections/rebuild'],
        ['/console/projections/verify', '/events/verify'],
        ['/console/projections/dead-letters/projects/1/retry', '/projections/dead-letters/projects/1/retry'],
        ['/console/projections/dead-letters/projects/1/skip', '/projections/dead-letters/projects/1/skip'],
      ]) {
        const api = await replica.admin('POST', apiPath);
        const refused = await console_.page('POST', path, { cookie, form });
        expect({ path, status: refused.status }).toEqual({ path, status: api.status });
        expect(api.status).toBe(409);
        expect(refused.html).toContain(escape(api.body.message));
      }
      const topology = await console_.page('GET', '/console/topology', { cookie });
      expect(topology.html).toContain('<strong>API replica</strong> (replica)');
      expect(topology.html).toContain('<dd data-check="projections">ok</dd>');
    }
  });

  it('after kill -9 of the projector, writes through the replicas commit and converge within seconds of its restart', async () => {
    expect(await projector.stop('SIGKILL')).toBeNull();
    const [a, b] = clients().slice(1);
    const written: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await createProject(i % 2 ? a : b, tenants[i % tenants.length]);
        // Committed, but nobody projects it now: the replica says so instead of pretending.
        expect(res.headers['x-read-consistency']).toBe('pending');
        written.push(res.body.id);
      }),
    );
    const restarted = Date.now();
    projector = await startProjector();
    const [p] = clients();
    let missing = written;
    while (missing.length > 0 && Date.now() - restarted < 10_000) {
      const still: string[] = [];
      for (const id of missing) {
        for (const via of [p, a, b]) {
          if ((await via.call('GET', `/v1/projects/${id}`, projects.get(id)!.tenant.readKey)).status !== 200)
            still.push(id);
        }
      }
      missing = [...new Set(still)];
      if (missing.length > 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(missing).toEqual([]);
    expect(Date.now() - restarted).toBeLessThan(10_000);
    // And a write through a replica is read-your-writes again.
    const after = await createProject(a, tenants[0]);
    expect(after.headers['x-read-consistency']).toBeUndefined();
    expect((await b.call('GET', `/v1/projects/${after.body.id}`, tenants[0].readKey)).status).toBe(200);
  });

  it('after kill -9 of a replica in the middle of writes, every acknowledged write is there', async () => {
    const victim = new ServiceClient(replicas[1].baseUrl, ADMIN_TOKEN);
    let acknowledged = 0;
    const ended: string[] = [];
    const writers = Array.from({ length: 6 }, async (_, w) => {
      for (;;) {
        try {
          await createProject(victim, tenants[w % tenants.length]);
          acknowledged++;
        } catch (error) {
          // The connection died with the process: that write may or may not exist.
          ended.push((error as Error).message);
          return;
        }
      }
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(await replicas[1].stop('SIGKILL')).toBeNull();
    await Promise.all(writers);
    expect({ acknowledged: acknowledged > 0, ended: ended.slice(0, 1) }).toMatchObject({ acknowledged: true });
    replicas[1] = await startReplica();
    const all = clients();
    for (const client of all) expect(await missingThrough(client)).toEqual([]);
    const verify = await all[0].admin('POST', '/events/verify');
    expect(verify.body.differences).toEqual([]);
    for (const client of all) expect((await client.request({ method: 'GET', path: '/ready' })).status).toBe(200);
  });
});
