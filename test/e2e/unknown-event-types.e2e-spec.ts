import { randomUUID } from 'node:crypto';
import { EVENT_STORE, EventStore, NewEvent } from '@app/application';
import { TestApp } from '../support/test-app';

/**
 * An event of a type this release does not know (written by a newer release that was then
 * rolled back, say) sits in a project stream and in a workspace stream: every command and read
 * on them still answers normally, and the event is counted in /metrics.
 */
describe('Events of unknown types in the store', () => {
  let t: TestApp;
  let keys: Awaited<ReturnType<TestApp['provision']>>;
  let store: EventStore;
  const project = { name: 'Tower survey', description: 'North face', status: 'planned', start_date: '2026-03-01' };

  beforeAll(async () => {
    t = await TestApp.start();
    keys = await t.provision({ projectLimit: 10 });
    store = t.app.get<EventStore>(EVENT_STORE);
  });
  afterAll(() => t.stop());

  const unknownEvent = (type: string, workspaceId: string): NewEvent => ({
    id: randomUUID(),
    type,
    schemaVersion: 3,
    data: { id: 'whatever', nested: { shape: ['of', 'the', 'future'] } },
    metadata: {
      workspaceId,
      actor: { type: 'operator' },
      requestId: null,
      correlationId: randomUUID(),
      causationId: null,
      recordedAt: Date.now(),
    },
  });

  it('commands and reads on a project stream holding one answer normally', async () => {
    const created = await t.request('POST', '/v1/projects', { token: keys.fullKey, body: project });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await store.appendToStream(`project-${id}`, [unknownEvent('project.teleported', keys.workspaceId)], {
      expectedRevision: 'any',
    });

    const renamed = await t.request('PATCH', `/v1/projects/${id}`, { token: keys.fullKey, body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    const got = await t.request('GET', `/v1/projects/${id}`, { token: keys.readKey });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, name: 'Renamed', status: 'planned' });
    const asOf = await t.request('GET', `/v1/projects/${id}?as_of=${Date.now()}`, { token: keys.readKey });
    expect(asOf.status).toBe(200);
    expect(asOf.body).toMatchObject({ id, name: 'Renamed' });

    const job = await t.request('POST', `/v1/projects/${id}/jobs`, {
      token: keys.fullKey,
      body: {
        name: 'Flight 1',
        type: 'wind_turbine',
        job_pattern: 'one_time',
        start_date: new Date().toISOString().slice(0, 10),
      },
    });
    expect(job.status).toBe(201);

    const history = await t.request('GET', `/v1/projects/${id}/history`, { token: keys.readKey });
    expect(history.status).toBe(200);
    expect(history.body.history.map((e: { type: string }) => e.type)).toEqual([
      'project.created',
      'project.teleported',
      'project.updated',
    ]);

    const exported = await t.admin('GET', `/events/export?stream=project-${id}`);
    expect(exported.status).toBe(200);

    const archived = await t.request('POST', `/v1/projects/${id}/archive`, {
      token: keys.fullKey,
      body: { archived: true },
    });
    expect(archived.status).toBe(200);
    const deleted = await t.request('DELETE', `/v1/projects/${id}`, { token: keys.fullKey });
    expect(deleted.status).toBe(204);
    expect((await t.request('GET', `/v1/projects/${id}`, { token: keys.readKey })).status).toBe(404);
  });

  it('commands and reads on a workspace stream holding one answer normally', async () => {
    await store.appendToStream(
      `workspace-${keys.workspaceId}`,
      [unknownEvent('workspace.moved_to_mars', keys.workspaceId)],
      {
        expectedRevision: 'any',
      },
    );

    const created = await t.request('POST', '/v1/projects', { token: keys.fullKey, body: project }); // reserves a slot on the workspace stream
    expect(created.status).toBe(201);
    expect((await t.request('GET', '/v1/projects', { token: keys.readKey })).status).toBe(200);
    const member = await t.admin('POST', `/workspaces/${keys.workspaceId}/members`, {
      email: 'pat@example.com',
      role: 'pilot',
      first_name: 'Pat',
    });
    expect(member.status).toBe(201);
    const key = await t.admin('POST', `/workspaces/${keys.workspaceId}/api-keys`, {
      name: 'Another',
      scope: 'read_only',
    });
    expect(key.status).toBe(201);
    expect((await t.request('GET', '/v1/projects', { token: key.body.key })).status).toBe(200);
    expect((await t.admin('PATCH', `/workspaces/${keys.workspaceId}`, { project_limit: 20 })).status).toBe(200);
    expect((await t.request('GET', '/v1/team', { token: keys.readKey })).status).toBe(200);
    expect((await t.request('GET', '/v1/events', { token: keys.readKey })).status).toBe(200);
  });

  it('replays them into the same read models, and counts them in /metrics', async () => {
    const verified = await t.admin('POST', '/events/verify');
    expect(verified.status).toBe(200);
    expect(verified.body.differences).toEqual([]);

    const metrics = await t.request('GET', '/metrics');
    const count = (type: string) =>
      Number(new RegExp(`^events_unknown_type_total\\{type="${type}"\\} (\\d+)`, 'm').exec(metrics.text)?.[1] ?? 0);
    expect(count('project.teleported')).toBeGreaterThan(0);
    expect(count('workspace.moved_to_mars')).toBeGreaterThan(0);
  });
});
