import { randomUUID } from 'node:crypto';
import { EVENT_STORE, EventStore, ProjectionEngine } from '@app/application';
import { useProvisionedApp } from '../support/test-app';

const start = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const project = { name: 'Dam inspection', description: 'Spillway', status: 'planned', start_date: start };

/** The value of one sample of the Prometheus text, or undefined when absent. */
function sample(metrics: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    if (wanted.every((pair) => inside.split(',').includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('Projection failures over HTTP: a poison event, a stalled engine, causation ids', () => {
  describe('a job projector that throws on a crafted event', () => {
    const { t, keys } = useProvisionedApp({ READ_YOUR_WRITES_TIMEOUT_MS: '2000' });
    let projectId: string;
    let jobId: string;

    beforeAll(async () => {
      projectId = (await t.request('POST', '/v1/projects', { token: keys.fullKey, body: project })).body.id;
      const job = await t.request('POST', `/v1/projects/${projectId}/jobs`, {
        token: keys.fullKey,
        body: { name: 'Blade inspection', type: 'wind_turbine', job_pattern: 'one_time', start_date: start },
      });
      expect(job.status).toBe(201);
      jobId = job.body.id;
      // A `job.updated` without its `changes`: the job projector cannot project it.
      const events = t.app.get<EventStore>(EVENT_STORE);
      await events.appendToStream(
        `job-${jobId}`,
        [
          {
            id: randomUUID(),
            type: 'job.updated',
            schemaVersion: 1,
            data: { id: jobId, workspace_id: keys.workspaceId, project_id: projectId, updated: Date.now() },
            metadata: {
              workspaceId: keys.workspaceId,
              actor: { type: 'operator' },
              requestId: null,
              correlationId: 'crafted',
              causationId: 'crafted',
              recordedAt: Date.now(),
            },
          },
        ],
        { expectedRevision: 'any' },
      );
      for (let i = 0; i < 200; i++) {
        if ((await t.admin('GET', '/projections/dead-letters')).body.dead_letters.length > 0) return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('the crafted event was not parked');
    });

    it('parks the event for the jobs projection only and names it; every projection keeps its checkpoint moving', async () => {
      const list = await t.admin('GET', '/projections/dead-letters?projection=jobs');
      expect(list.status).toBe(200);
      expect(list.body.dead_letters).toEqual([
        expect.objectContaining({
          projection: 'jobs',
          streamId: `job-${jobId}`,
          eventType: 'job.updated',
          attempts: 1,
          error: expect.any(String),
        }),
      ]);
      const status = await t.admin('GET', '/projections');
      for (const p of status.body.projections) expect(p.lag).toBe(0);
      expect((await t.admin('GET', '/projections/dead-letters?projection=projects')).body.dead_letters).toEqual([]);
    });

    it('stays ready (200) but names the degraded projection; /metrics counts the dead letter', async () => {
      const ready = await t.request('GET', '/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.checks.degraded).toBe('dead letters: jobs (1)');
      const metrics = (await t.request('GET', '/metrics')).text;
      expect(sample(metrics, 'projection_dead_letters', { projection: 'jobs' })).toBe(1);
      expect(sample(metrics, 'projection_dead_letters', { projection: 'projects' })).toBe(0);
      expect(sample(metrics, 'projection_dead_letters_parked_total', { projection: 'jobs' })).toBe(1);
    });

    it('keeps the other resources live and honest: no header for a project write, pending for the parked job', async () => {
      const created = await t.request('POST', '/v1/projects', {
        token: keys.fullKey,
        body: { ...project, name: 'Second' },
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('x-read-consistency')).toBeNull();
      expect((await t.request('GET', `/v1/projects/${created.body.id}`, { token: keys.readKey })).status).toBe(200);

      // The jobs read model cannot show this job as it is: the answer says so instead of lying.
      const patched = await t.request('PATCH', `/v1/projects/${projectId}/jobs/${jobId}`, {
        token: keys.fullKey,
        body: { name: 'Renamed' },
      });
      expect(patched.status).toBe(200);
      expect(patched.headers.get('x-read-consistency')).toBe('pending');
      const metrics = (await t.request('GET', '/metrics')).text;
      expect(
        sample(metrics, 'read_your_writes_timeouts_total', {
          projection: 'jobs',
          route: '/v1/projects/:projectId/jobs/:jobId',
        }),
      ).toBe(1);
    });

    it('lets the operator retry (failing again) and skip it; then the job writes answer plainly again', async () => {
      const [letter] = (await t.admin('GET', '/projections/dead-letters')).body.dead_letters;
      const retried = await t.admin('POST', `/projections/dead-letters/jobs/${letter.position}/retry`);
      expect(retried.status).toBe(200);
      expect(retried.body).toEqual({
        outcome: 'failed',
        dead_letter: expect.objectContaining({ position: letter.position, attempts: 2 }),
      });

      expect((await t.admin('POST', '/projections/dead-letters/jobs/abc/retry')).status).toBe(400);
      expect((await t.admin('POST', `/projections/dead-letters/nope/${letter.position}/skip`)).status).toBe(404);
      expect((await t.admin('POST', `/projections/dead-letters/projects/${letter.position}/skip`)).body).toEqual({
        message: `No dead letter at position ${letter.position} of projection projects`,
      });
      expect(
        (
          await t.request('POST', `/v1/admin/projections/dead-letters/jobs/${letter.position}/skip`, {
            token: keys.fullKey,
          })
        ).status,
      ).toBe(403);

      const skipped = await t.admin('POST', `/projections/dead-letters/jobs/${letter.position}/skip`);
      expect(skipped.status).toBe(200);
      expect(skipped.body.dead_letter.eventId).toBe(letter.eventId);
      expect((await t.admin('GET', '/projections/dead-letters')).body.dead_letters).toEqual([]);
      expect((await t.request('GET', '/ready')).body.checks.degraded).toBeUndefined();

      const patched = await t.request('PATCH', `/v1/projects/${projectId}/jobs/${jobId}`, {
        token: keys.fullKey,
        body: { name: 'Again' },
      });
      expect(patched.status).toBe(200);
      expect(patched.headers.get('x-read-consistency')).toBeNull();
      expect(
        (await t.request('GET', `/v1/projects/${projectId}/jobs/${jobId}`, { token: keys.readKey })).body.name,
      ).toBe('Again');
    });
  });

  describe('a stalled projection engine', () => {
    const { t, keys } = useProvisionedApp({ READ_YOUR_WRITES_TIMEOUT_MS: '300' });

    it('answers a committed write with X-Read-Consistency: pending and counts it; after a restart the header is gone', async () => {
      const engine = t.app.get(ProjectionEngine);
      await engine.stop();
      const created = await t.request('POST', '/v1/projects', { token: keys.fullKey, body: project });
      expect(created.status).toBe(201);
      expect(created.headers.get('x-read-consistency')).toBe('pending');
      const metrics = (await t.request('GET', '/metrics')).text;
      expect(
        sample(metrics, 'read_your_writes_timeouts_total', { projection: 'projects', route: '/v1/projects' }),
      ).toBe(1);

      // Restarted as the service starts it: caught up with the store before it answers again.
      await engine.start();
      expect(await engine.waitFor(await t.app.get<EventStore>(EVENT_STORE).headPosition())).toBe(true);
      const shown = await t.request('GET', `/v1/projects/${created.body.id}`, { token: keys.readKey });
      expect(shown.status).toBe(200);
      const next = await t.request('POST', '/v1/projects', { token: keys.fullKey, body: { ...project, name: 'Next' } });
      expect(next.status).toBe(201);
      expect(next.headers.get('x-read-consistency')).toBeNull();
    });
  });

  describe('causation ids', () => {
    const { t, keys } = useProvisionedApp();

    it('records the command behind every event: the request id of an HTTP command', async () => {
      const requestId = `req-${randomUUID()}`;
      const created = await t.request('POST', '/v1/projects', {
        token: keys.fullKey,
        body: project,
        headers: { 'x-request-id': requestId },
      });
      expect(created.headers.get('x-request-id')).toBe(requestId);
      const events = t.app.get<EventStore>(EVENT_STORE);
      const [recorded] = await events.readStream(`project-${created.body.id}`);
      expect(recorded.metadata.causationId).toBe(requestId);
      expect(recorded.metadata.requestId).toBe(requestId);
      // Every event in the store has a causation, whatever wrote it (operator commands included).
      const all = await events.readAll({ after: 0, maxCount: 1000 });
      expect(all.length).toBeGreaterThan(3);
      for (const event of all) expect(event.metadata.causationId).toEqual(expect.any(String));
    });
  });
});
