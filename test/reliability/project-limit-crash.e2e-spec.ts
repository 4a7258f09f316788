import { randomInt, randomUUID } from 'node:crypto';
import Database from '@app/infrastructure/sqlite/sqlite-driver';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_LIMIT_REACHED } from '@app/domain';
import { plusDays, today } from '../support/dates';
import { UNLIMITED_RATE } from '../support/reliability-profile';
import { ServiceClient } from '../support/service-client';
import type { ServiceProcess } from '../support/service-process';
import { startServiceProcess } from '../support/service-start';

/**
 * The project limit holds under kill -9 (docs/reliability.md). Two service processes share one
 * DATA_DIR as the documented scaled topology has them: the projector and an API replica
 * (`PROJECTIONS=external`; the read models have one writer, docs/operations.md). Eight writers
 * create projects (some with jobs, some retried with the same Idempotency-Key) and delete them
 * through either process, while processes are killed with SIGKILL at random moments and
 * restarted. Afterwards:
 *
 * - exactly `limit - live` more projects can be created: no slot is held by a project that does
 *   not exist, and none was given back twice;
 * - no job of a deleted project is left.
 */

const LIMIT = 30;
const WRITERS = 8;
const KILLS = 6;
const KILL_EVERY_MS = [1500, 3500] as const;

jest.setTimeout(180_000);

describe('Project limit under SIGKILL (two processes, one DATA_DIR)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'limit-crash-'));
  const adminToken = `admin-${randomUUID()}`;
  // Process 0 is the projector, process 1 a replica. While the projector is down, writes through
  // the replica commit and wait READ_YOUR_WRITES_TIMEOUT_MS for it before answering pending.
  const env = (index: number) => ({
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    PROJECTIONS: index === 0 ? 'inline' : 'external',
    READ_YOUR_WRITES_TIMEOUT_MS: '2000',
    ...UNLIMITED_RATE,
  });
  const processes: (ServiceProcess | null)[] = [null, null];

  afterAll(async () => {
    await Promise.all(processes.map((p) => p?.stop('SIGKILL')));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaks no slot and leaves no job of a deleted project', async () => {
    processes[0] = await startServiceProcess(env(0));
    processes[1] = await startServiceProcess(env(1));
    const client = (i: number) => new ServiceClient(processes[i]!.baseUrl, adminToken);
    const tenant = await client(0).provision({ name: 'Limited', projectLimit: LIMIT });
    const token = tenant.fullKey;

    const known = new Set<string>();
    let stop = false;
    const counts = { created: 0, deleted: 0, jobs: 0, refused: 0, failed: 0 };
    const up = () => processes.map((p, i) => (p ? i : -1)).filter((i) => i >= 0);
    const anyClient = () => {
      const alive = up();
      return alive.length > 0 ? client(alive[randomInt(alive.length)]) : null;
    };
    const project = () => ({
      name: `P ${randomUUID().slice(0, 8)}`,
      description: 'Limit under crash',
      status: 'planned',
      start_date: today(),
    });

    const writer = async () => {
      while (!stop) {
        const c = anyClient();
        if (!c) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        try {
          if (known.size > 0 && randomInt(10) < 4) {
            const id = [...known][randomInt(known.size)];
            const res = await c.call('DELETE', `/v1/projects/${id}`, token);
            if (res.status === 204 || res.status === 404) known.delete(id);
            if (res.status === 204) counts.deleted++;
          } else {
            const key = randomUUID();
            const body = project();
            let res = await c.call('POST', '/v1/projects', token, body, { 'idempotency-key': key });
            // Sometimes send the same request again, as a client whose answer was lost would.
            if (randomInt(4) === 0) res = await c.call('POST', '/v1/projects', token, body, { 'idempotency-key': key });
            if (res.status === 201) {
              known.add(res.body.id);
              counts.created++;
              if (randomInt(2) === 0) {
                const job = await c.call('POST', `/v1/projects/${res.body.id}/jobs`, token, {
                  name: 'Survey',
                  type: 'wind_turbine',
                  job_pattern: 'one_time',
                  start_date: plusDays(today(), 1),
                });
                if (job.status === 201) counts.jobs++;
              }
            } else if (res.status === 403 || res.status === 429 || res.status === 422) counts.refused++;
          }
        } catch {
          counts.failed++; // the process died under the request: its outcome is unknown
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };

    const killer = async () => {
      for (let k = 0; k < KILLS; k++) {
        await new Promise((r) => setTimeout(r, randomInt(KILL_EVERY_MS[0], KILL_EVERY_MS[1])));
        const victim = randomInt(processes.length);
        const dying = processes[victim];
        processes[victim] = null;
        await dying?.stop('SIGKILL');
        processes[victim] = await startServiceProcess(env(victim));
      }
      stop = true;
    };

    await Promise.all([killer(), ...Array.from({ length: WRITERS }, writer)]);
    // The run did real work: creates, deletes and jobs, across kills.
    expect(counts.created).toBeGreaterThan(LIMIT / 2);
    expect(counts.jobs).toBeGreaterThan(0);

    const c = client(0);
    const live = await c.listAll<{ id: string }>('/v1/projects?limit=100', token, 'projects');
    expect(live.length).toBeLessThanOrEqual(LIMIT);
    let more = 0;
    for (;;) {
      const res = await c.call('POST', '/v1/projects', token, project());
      if (res.status !== 201) {
        expect(res.body.message).toBe(PROJECT_LIMIT_REACHED);
        break;
      }
      more++;
      expect(more).toBeLessThanOrEqual(LIMIT);
    }
    expect(more).toBe(LIMIT - live.length);

    // No job outlives its project: read the history itself.
    const db = new Database(join(dataDir, 'events.db'), { readonly: true });
    const rows = db
      .prepare("SELECT type, data FROM events WHERE type IN ('project.deleted', 'job.created', 'job.deleted')")
      .all() as {
      type: string;
      data: string;
    }[];
    db.close();
    const deletedProjects = new Set<string>();
    const jobs = new Map<string, string>();
    for (const row of rows) {
      const data = JSON.parse(row.data);
      if (row.type === 'project.deleted') deletedProjects.add(data.id);
      if (row.type === 'job.created') jobs.set(data.id, data.project_id);
      if (row.type === 'job.deleted') jobs.delete(data.id);
    }
    const orphans = [...jobs].filter(([, projectId]) => deletedProjects.has(projectId));
    expect(jobs.size + orphans.length).toBeGreaterThan(0);
    expect(orphans).toEqual([]);
    expect(deletedProjects.size).toBeGreaterThan(0);
  });
});
