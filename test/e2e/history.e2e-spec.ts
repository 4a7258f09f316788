import { TestApp, useProvisionedApp } from '../support/test-app';

describe('Event history and audit feed (auditors) over HTTP', () => {
  const { t, keys } = useProvisionedApp();
  const valid = { name: 'Tower survey', description: 'North face', status: 'planned', start_date: '2026-03-01' };

  const create = async (token = keys.fullKey) =>
    (await t.request('POST', '/v1/projects', { token, body: valid })).body.id as string;
  const history = (id: string, query = '', token = keys.readKey) =>
    t.request('GET', `/v1/projects/${id}/history${query}`, { token });

  it('lists a project’s events in order with actor, request id and the change, and keeps them after deletion', async () => {
    const id = await create();
    await t.request('PATCH', `/v1/projects/${id}`, {
      token: keys.fullKey,
      body: { name: 'Renamed' },
      headers: { 'x-request-id': 'audit-trail-1' },
    });
    await t.request('POST', `/v1/projects/${id}/archive`, { token: keys.fullKey, body: { archived: true } });
    await t.request('DELETE', `/v1/projects/${id}`, { token: keys.fullKey });

    const res = await history(id);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(4);
    expect(res.body.cursor).toBeNull();
    expect(res.body.history.map((e: { type: string }) => e.type)).toEqual([
      'project.created',
      'project.updated',
      'project.updated',
      'project.deleted',
    ]);
    expect(res.body.history.map((e: { revision: number }) => e.revision)).toEqual([0, 1, 2, 3]);
    const [created, renamed] = res.body.history;
    expect(created.actor).toEqual({ type: 'api_key', id: keys.fullKeyId, name: 'Ops bot' });
    expect(created.change).toMatchObject({ id, name: 'Tower survey', status: 'planned' });
    expect(renamed.request_id).toBe('audit-trail-1');
    expect(renamed.change).toMatchObject({ changes: { name: 'Renamed' } });
    expect(typeof renamed.recorded_at).toBe('number');
    expect(renamed.recorded_at).toBeGreaterThanOrEqual(created.recorded_at);
  });

  it('pages long histories by revision', async () => {
    const id = await create();
    for (let i = 0; i < 55; i++) {
      await t.request('PATCH', `/v1/projects/${id}`, { token: keys.fullKey, body: { name: `Name ${i}` } });
    }
    const first = await history(id);
    expect(first.body.count).toBe(50);
    const second = await history(id, `?cursor=${first.body.cursor}`);
    expect(second.body.count).toBe(6);
    expect(second.body.cursor).toBeNull();
    expect(second.body.history[0].revision).toBe(50);
  });

  it('answers 404 for unknown and foreign projects, and 400 for a bad cursor', async () => {
    expect(await history('prj_missing')).toMatchObject({ status: 404, body: { message: 'Project not found' } });
    const other = await t.provision({ name: 'Other' });
    const theirs = await create(other.fullKey);
    expect(await history(theirs)).toMatchObject({ status: 404, body: { message: 'Project not found' } });
    expect((await history(theirs, '', other.readKey)).status).toBe(200);
    expect(await history(theirs, '?cursor=bogus', other.readKey)).toMatchObject({
      status: 400,
      body: { message: 'cursor is invalid' },
    });
  });

  it('never shows key hashes or secrets in the audit feed', async () => {
    const res = await t.request('GET', '/v1/events', { token: keys.readKey });
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/key_hash|secret/);
    expect(res.text).not.toContain(keys.fullKey);
  });

  describe('GET /events', () => {
    let ws: Awaited<ReturnType<TestApp['provision']>>;
    let ids: string[];
    let middle: number;

    beforeAll(async () => {
      ws = await t.provision({ name: 'Audited' });
      ids = [];
      for (let i = 0; i < 3; i++) ids.push(await create(ws.fullKey));
      await new Promise((r) => setTimeout(r, 5));
      middle = Date.now();
      await new Promise((r) => setTimeout(r, 5));
      await t.request('PATCH', `/v1/projects/${ids[0]}`, { token: ws.fullKey, body: { name: 'Later' } });
    });

    const feed = (query = '') => t.request('GET', `/v1/events${query}`, { token: ws.readKey });

    it('lists the workspace’s events in store order, and nothing of other workspaces', async () => {
      const res = await feed();
      expect(res.status).toBe(200);
      const positions = res.body.events.map((e: { position: number }) => e.position);
      expect([...positions].sort((a: number, b: number) => a - b)).toEqual(positions);
      const streams = new Set(res.body.events.map((e: { stream: string }) => e.stream));
      expect(streams.has(`workspace-${ws.workspaceId}`)).toBe(true);
      for (const id of ids) expect(streams.has(`project-${id}`)).toBe(true);
      expect([...streams].some((s) => s === `workspace-${keys.workspaceId}`)).toBe(false);
    });

    it('filters by event type and time range', async () => {
      const created = await feed('?type=project.created');
      expect(created.body.events.map((e: { type: string }) => e.type)).toEqual([
        'project.created',
        'project.created',
        'project.created',
      ]);
      const both = await feed('?type=project.created,project.updated');
      expect(both.body.count).toBe(4);
      const later = await feed(`?from=${middle}`);
      expect(later.body.events.map((e: { type: string }) => e.type)).toEqual(['project.updated']);
      const earlier = await feed(`?type=project.updated&to=${middle}`);
      expect(earlier.body.count).toBe(0);
    });

    it('refuses malformed filters with 400', async () => {
      expect(await feed('?from=yesterday')).toMatchObject({
        status: 400,
        body: { message: 'from must be a Unix time in milliseconds' },
      });
      expect(await feed('?from=10&to=5')).toMatchObject({
        status: 400,
        body: { message: 'from must not be after to' },
      });
      expect(await feed('?type=DROP TABLE')).toMatchObject({ status: 400 });
    });
  });
});

describe('Job and job type history, and temporal reads', () => {
  const { t, keys } = useProvisionedApp();
  const today = new Date().toISOString().slice(0, 10);

  const tick = () => new Promise((r) => setTimeout(r, 3));

  it('rebuilds a project as of an instant: the third of five changes; 404 before creation and after deletion', async () => {
    const before = Date.now() - 1;
    const id = (
      await t.request('POST', '/v1/projects', {
        token: keys.fullKey,
        body: { name: 'v0', description: 'd', status: 'draft', start_date: '2026-03-01' },
      })
    ).body.id;
    const stamps: number[] = [];
    for (let i = 1; i <= 5; i++) {
      await tick();
      await t.request('PATCH', `/v1/projects/${id}`, { token: keys.fullKey, body: { name: `v${i}` } });
      stamps.push(Date.now());
      await tick();
    }
    const third = await t.request('GET', `/v1/projects/${id}?as_of=${stamps[2]}`, { token: keys.readKey });
    expect(third.status).toBe(200);
    expect(third.body.name).toBe('v3');
    expect(Object.keys(third.body)).toEqual(
      Object.keys((await t.request('GET', `/v1/projects/${id}`, { token: keys.readKey })).body),
    );
    expect((await t.request('GET', `/v1/projects/${id}?as_of=${before}`, { token: keys.readKey })).body).toEqual({
      message: 'Project not found',
    });
    await t.request('DELETE', `/v1/projects/${id}`, { token: keys.fullKey });
    expect((await t.request('GET', `/v1/projects/${id}?as_of=${Date.now()}`, { token: keys.readKey })).status).toBe(
      404,
    );
    expect((await t.request('GET', `/v1/projects/${id}?as_of=${stamps[4]}`, { token: keys.readKey })).body.name).toBe(
      'v5',
    );
    expect((await t.request('GET', `/v1/projects/${id}?as_of=soon`, { token: keys.readKey })).body).toEqual({
      message: 'as_of must be a Unix time in milliseconds',
    });
    const history = await t.request('GET', `/v1/projects/${id}/history`, { token: keys.readKey });
    expect(history.body.history.map((e: { type: string }) => e.type).slice(-1)).toEqual(['project.deleted']);
  });

  it('keeps a job’s history (with its project) and rebuilds it as of an instant', async () => {
    const project = (
      await t.request('POST', '/v1/projects', {
        token: keys.fullKey,
        body: { name: 'P', description: 'd', status: 'draft', start_date: today },
      })
    ).body.id;
    const job = await t.request('POST', `/v1/projects/${project}/jobs`, {
      token: keys.fullKey,
      body: { name: 'Inspect', type: 'drone_inspection', job_pattern: 'one_time', start_date: today },
    });
    expect(job.status).toBe(201);
    await tick();
    const afterCreate = Date.now();
    await tick();
    await t.request('PATCH', `/v1/projects/${project}/jobs/${job.body.id}`, {
      token: keys.fullKey,
      body: { name: 'Renamed' },
    });
    const old = await t.request('GET', `/v1/projects/${project}/jobs/${job.body.id}?as_of=${afterCreate}`, {
      token: keys.readKey,
    });
    expect(old.body.name).toBe('Inspect');
    expect(
      (await t.request('GET', `/v1/projects/${project}/jobs/${job.body.id}`, { token: keys.readKey })).body.name,
    ).toBe('Renamed');

    await t.request('DELETE', `/v1/projects/${project}`, { token: keys.fullKey });
    const history = await t.request('GET', `/v1/projects/${project}/jobs/${job.body.id}/history`, {
      token: keys.readKey,
    });
    expect(history.status).toBe(200);
    expect(history.body.history.map((e: { type: string }) => e.type)).toEqual([
      'job.created',
      'job.updated',
      'job.deleted',
    ]);
    expect(
      (await t.request('GET', `/v1/projects/prj_other/jobs/${job.body.id}/history`, { token: keys.readKey })).body,
    ).toEqual({
      message: 'Job not found',
    });
  });

  it('keeps a custom job type’s history; predefined types have none', async () => {
    const type = await t.request('POST', '/v1/job-types', {
      token: keys.fullKey,
      body: { name: 'Bridge', icon: 'home' },
    });
    await t.request('DELETE', `/v1/job-types/${type.body.id}`, { token: keys.fullKey });
    const history = await t.request('GET', `/v1/job-types/${type.body.id}/history`, { token: keys.readKey });
    expect(history.body.history.map((e: { type: string }) => e.type)).toEqual(['job_type.created', 'job_type.deleted']);
    expect((await t.request('GET', '/v1/job-types/drone_inspection/history', { token: keys.readKey })).body).toEqual({
      history: [],
      count: 0,
      cursor: null,
    });
    expect((await t.request('GET', '/v1/job-types/jbt_missing/history', { token: keys.readKey })).body).toEqual({
      message: 'Job Type not found',
    });
  });
});
