import { TestApp } from '../support/test-app';

const STATUS_MESSAGE =
  'status must be one of: draft, not_started, planned, in_progress, completed, on_hold, weather_delayed, technical_issues, cancelled, aborted, other';

describe('Projects (docs/api.md, Projects) over HTTP', () => {
  let t: TestApp;
  let keys: Awaited<ReturnType<TestApp['provision']>>;
  const valid = {
    name: 'Bridge survey',
    description: 'Quarterly inspection',
    status: 'planned',
    start_date: '2026-03-01',
  };

  beforeAll(async () => {
    t = await TestApp.start();
    keys = await t.provision();
  });
  afterAll(() => t.stop());

  const post = (body: unknown, token = keys.fullKey) => t.request('POST', '/v1/projects', { token, body });
  const get = (id: string, token = keys.fullKey) => t.request('GET', `/v1/projects/${id}`, { token });
  const patch = (id: string, body: unknown) => t.request('PATCH', `/v1/projects/${id}`, { token: keys.fullKey, body });
  const create = async (overrides: object = {}, token = keys.fullKey) => {
    const res = await post({ ...valid, ...overrides }, token);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  describe('POST /projects', () => {
    it('creates a project and answers 201 { id }; a GET right after sees every field', async () => {
      const res = await post({ ...valid, end_date: '2026-06-30', external_id: 'ERP-1' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['id']);
      const read = await get(res.body.id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        id: res.body.id,
        name: 'Bridge survey',
        description: 'Quarterly inspection',
        status: 'planned',
        start_date: '2026-03-01',
        end_date: '2026-06-30',
        created: expect.any(Number),
        updated: expect.any(Number),
        archived: false,
        external_id: 'ERP-1',
        laanc_number: null,
        created_by: { id: keys.fullKeyId, email: null, first_name: 'Ops bot', last_name: null, profile_picture: null },
      });
      expect(read.body.created).toBe(read.body.updated);
      expect(Math.abs(read.body.created - Date.now())).toBeLessThan(60_000);
    });

    it('accepts status other with a reason, which is write-only', async () => {
      const id = await create({ status: 'other', other_status_reason: 'Awaiting permit' });
      const read = await get(id);
      expect(read.body.status).toBe('other');
      expect(read.body).not.toHaveProperty('other_status_reason');
    });

    it.each<[string, object, string]>([
      ['missing name', { name: undefined }, 'name is required'],
      ['null name', { name: null }, 'name is required'],
      ['empty name', { name: '' }, 'name must be between 1 and 100 characters'],
      ['long name', { name: 'n'.repeat(101) }, 'name must be between 1 and 100 characters'],
      ['numeric name', { name: 42 }, 'name must be a string'],
      ['missing start_date', { start_date: undefined }, 'start_date is required'],
      ['bad start_date', { start_date: '03/01/2026' }, 'start_date must be a valid ISO date string'],
      ['impossible start_date', { start_date: '2026-02-30' }, 'start_date must be a valid ISO date string'],
      ['bad end_date', { end_date: 'soon' }, 'end_date must be a valid ISO date string'],
      ['end_date before start_date', { end_date: '2026-02-01' }, 'end_date must be after start_date'],
      ['end_date equal to start_date', { end_date: '2026-03-01' }, 'end_date must be after start_date'],
      ['missing description', { description: undefined }, 'description is required'],
      ['long description', { description: 'd'.repeat(1001) }, 'description must be between 1 and 1000 characters'],
      ['missing status', { status: undefined }, STATUS_MESSAGE],
      ['unknown status', { status: 'done' }, STATUS_MESSAGE],
      ['other without reason', { status: 'other' }, 'other_status_reason is required when status is "other"'],
      [
        'long reason',
        { status: 'other', other_status_reason: 'r'.repeat(201) },
        'other_status_reason must be between 1 and 200 characters',
      ],
      ['long external_id', { external_id: 'e'.repeat(256) }, 'external_id must not exceed 255 characters'],
      ['unknown field', { color: 'red' }, 'color is not an allowed field'],
      ['laanc_number on create', { laanc_number: 'L-1' }, 'laanc_number is not an allowed field'],
    ])('refuses %s with 400', async (_name, overrides, message) => {
      const before = await t.request('GET', '/v1/projects?archived=false', { token: keys.fullKey });
      const res = await post({ ...valid, ...overrides });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
      const after = await t.request('GET', '/v1/projects?archived=false', { token: keys.fullKey });
      expect(after.body.count).toBe(before.body.count);
    });

    it('counts characters, not UTF-16 units', async () => {
      expect((await post({ ...valid, name: '🚁'.repeat(100) })).status).toBe(201);
      expect((await post({ ...valid, name: '🚁'.repeat(101) })).body).toEqual({
        message: 'name must be between 1 and 100 characters',
      });
    });

    it('refuses bodies that are not JSON objects', async () => {
      for (const rawBody of ['[]', '"text"', '42', 'null']) {
        const res = await t.request('POST', '/v1/projects', {
          token: keys.fullKey,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBe(400);
        expect(typeof res.body.message).toBe('string');
      }
    });

    it('refuses malformed JSON, prototype poisoning, a body over 1 MB and other content types with JSON 4xx', async () => {
      const send = (rawBody: string, type = 'application/json') =>
        t.request('POST', '/v1/projects', { token: keys.fullKey, rawBody, headers: { 'content-type': type } });
      const malformed = await send('{"name": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toMatch(/JSON/);
      const poisoned = await send(JSON.stringify(valid).replace('{', '{"__proto__": {"admin": true},'));
      expect(poisoned.status).toBe(400);
      const huge = await send(JSON.stringify({ ...valid, description: 'x'.repeat(1024 * 1024 + 10) }));
      expect(huge.status).toBe(413);
      expect(typeof huge.body.message).toBe('string');
      const xml = await send('<project/>', 'application/xml');
      expect(xml.status).toBe(415);
      expect(typeof xml.body.message).toBe('string');
    });
  });

  describe('GET /projects', () => {
    let ws: Awaited<ReturnType<TestApp['provision']>>;
    const ids: string[] = [];

    beforeAll(async () => {
      ws = await t.provision({ name: 'Lister' });
      const statuses = ['draft', 'planned', 'completed'];
      for (let i = 0; i < 120; i++) {
        ids.push(await create({ name: `P${i}`, status: statuses[i % 3] }, ws.fullKey));
      }
    });

    const list = (query = '') => t.request('GET', `/v1/projects${query}`, { token: ws.readKey });

    it('pages 50 at a time with an opaque cursor, in creation order, with no repeats or gaps', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      const counts: number[] = [];
      do {
        const res = await list(cursor ? `?cursor=${encodeURIComponent(cursor)}` : '');
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(res.body.projects.length);
        counts.push(res.body.count);
        seen.push(...res.body.projects.map((p: { id: string }) => p.id));
        cursor = res.body.cursor;
      } while (cursor);
      expect(counts).toEqual([50, 50, 20]);
      expect(seen).toEqual(ids);
    });

    it('keeps pages stable while projects are added', async () => {
      const first = await list();
      const extra = await create({ name: 'Late' }, ws.fullKey);
      const second = await list(`?cursor=${first.body.cursor}`);
      expect(second.body.projects.map((p: { id: string }) => p.id)).toEqual(ids.slice(50, 100));
      await t.request('DELETE', `/v1/projects/${extra}`, { token: ws.fullKey });
    });

    it('filters by comma-separated statuses', async () => {
      const res = await list('?status=draft,completed');
      expect(res.body.projects.every((p: { status: string }) => ['draft', 'completed'].includes(p.status))).toBe(true);
      let total = res.body.count;
      let cursor = res.body.cursor;
      while (cursor) {
        const next = await list(`?status=draft,completed&cursor=${cursor}`);
        total += next.body.count;
        cursor = next.body.cursor;
      }
      expect(total).toBe(80);
      expect((await list('?status=done')).body).toEqual({ message: STATUS_MESSAGE });
    });

    it('lists non-archived by default and only archived with archived=true', async () => {
      await t.request('POST', `/v1/projects/${ids[0]}/archive`, { token: ws.fullKey, body: { archived: true } });
      const active = await list();
      expect(active.body.projects.map((p: { id: string }) => p.id)).not.toContain(ids[0]);
      const archived = await list('?archived=true');
      expect(archived.body).toMatchObject({ count: 1, cursor: null });
      expect(archived.body.projects[0]).toMatchObject({ id: ids[0], archived: true });
      expect((await list('?archived=maybe')).body).toEqual({ message: 'archived must be true or false' });
      await t.request('POST', `/v1/projects/${ids[0]}/archive`, { token: ws.fullKey, body: { archived: false } });
      expect((await list()).body.projects[0].id).toBe(ids[0]);
    });

    it('refuses a malformed cursor with 400', async () => {
      for (const cursor of ['garbage!', 'Zm9v', '', 'a'.repeat(100)]) {
        const res = await list(`?cursor=${cursor}`);
        if (cursor === '') continue; // an empty cursor is "first page"
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message: 'cursor is invalid' } });
      }
    });

    it('shows only the key’s own workspace', async () => {
      const res = await t.request('GET', '/v1/projects', { token: keys.fullKey });
      const mine = res.body.projects.map((p: { id: string }) => p.id);
      expect(mine.some((id: string) => ids.includes(id))).toBe(false);
    });
  });

  describe('GET /projects/{id}', () => {
    it('answers 404 Project not found for unknown ids and for another workspace’s project', async () => {
      expect(await get('prj_missing')).toMatchObject({ status: 404, body: { message: 'Project not found' } });
      const other = await t.provision({ name: 'Other' });
      const theirs = await create({}, other.fullKey);
      expect(await get(theirs)).toMatchObject({ status: 404, body: { message: 'Project not found' } });
      expect((await get(theirs, other.readKey)).status).toBe(200);
    });
  });

  describe('PATCH /projects/{id}', () => {
    it('changes only the supplied fields and answers 200 { message }', async () => {
      const id = await create({ end_date: '2026-09-01', external_id: 'X' });
      const before = (await get(id)).body;
      const res = await patch(id, { name: 'Renamed', laanc_number: 'LAANC-7' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Project updated successfully' });
      const after = (await get(id)).body;
      expect(after).toEqual({ ...before, name: 'Renamed', laanc_number: 'LAANC-7', updated: after.updated });
      expect(after.updated).toBeGreaterThanOrEqual(before.updated);
    });

    it('clears nullable fields with null', async () => {
      const id = await create({ end_date: '2026-09-01', external_id: 'X' });
      await patch(id, { laanc_number: 'L' });
      expect((await patch(id, { end_date: null, external_id: null, laanc_number: null })).status).toBe(200);
      expect((await get(id)).body).toMatchObject({ end_date: null, external_id: null, laanc_number: null });
    });

    it.each<[string, object, string]>([
      ['empty name', { name: '' }, 'name must be between 1 and 100 characters'],
      ['null name', { name: null }, 'name must be a string'],
      ['empty description', { description: '' }, 'description must be between 1 and 1000 characters'],
      ['long description', { description: 'd'.repeat(1001) }, 'description must be between 1 and 1000 characters'],
      ['unknown status', { status: 'finished' }, STATUS_MESSAGE],
      ['other without reason', { status: 'other' }, 'other_status_reason is required when status is "other"'],
      ['bad start_date', { start_date: '2026-13-01' }, 'start_date must be a valid ISO date string'],
      ['bad end_date', { end_date: 'never' }, 'end_date must be a valid ISO date string'],
      ['end before stored start', { end_date: '2026-01-01' }, 'end_date must be after start_date'],
      ['start after stored end', { start_date: '2026-12-01' }, 'end_date must be after start_date'],
      ['long external_id', { external_id: 'e'.repeat(256) }, 'external_id must not exceed 255 characters'],
      ['long laanc_number', { laanc_number: 'l'.repeat(101) }, 'laanc_number must not exceed 100 characters'],
      ['unknown field', { archived: true }, 'archived is not an allowed field'],
    ])('refuses %s with 400 and changes nothing', async (_name, body, message) => {
      const id = await create({ end_date: '2026-09-01' });
      const before = (await get(id)).body;
      const res = await patch(id, body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
      expect((await get(id)).body).toEqual(before);
    });

    it('accepts status other with its reason', async () => {
      const id = await create();
      expect((await patch(id, { status: 'other', other_status_reason: 'Client paused' })).status).toBe(200);
      expect((await get(id)).body.status).toBe('other');
    });

    it('answers 404 for unknown, foreign and deleted projects', async () => {
      expect(await patch('prj_missing', { name: 'x' })).toMatchObject({
        status: 404,
        body: { message: 'Project not found' },
      });
      const other = await t.provision({ name: 'Other2' });
      const theirs = await create({}, other.fullKey);
      expect(await patch(theirs, { name: 'hijack' })).toMatchObject({
        status: 404,
        body: { message: 'Project not found' },
      });
      expect((await get(theirs, other.fullKey)).body.name).toBe(valid.name);
    });
  });

  describe('POST /projects/{id}/archive', () => {
    it('archives and unarchives with 200 { message }', async () => {
      const id = await create();
      const on = await t.request('POST', `/v1/projects/${id}/archive`, {
        token: keys.fullKey,
        body: { archived: true },
      });
      expect(on).toMatchObject({ status: 200, body: { message: 'Project archived successfully' } });
      expect((await get(id)).body.archived).toBe(true);
      const off = await t.request('POST', `/v1/projects/${id}/archive`, {
        token: keys.fullKey,
        body: { archived: false },
      });
      expect(off).toMatchObject({ status: 200, body: { message: 'Project unarchived successfully' } });
      expect((await get(id)).body.archived).toBe(false);
    });

    it.each([[{}], [{ archived: 'true' }], [{ archived: 1 }], [{ archived: null }]])(
      'refuses %j with 400 archived must be a boolean',
      async (body) => {
        const id = await create();
        const res = await t.request('POST', `/v1/projects/${id}/archive`, { token: keys.fullKey, body });
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: { message: 'archived must be a boolean' },
        });
      },
    );

    it('answers 404 for an unknown project', async () => {
      const res = await t.request('POST', '/v1/projects/prj_missing/archive', {
        token: keys.fullKey,
        body: { archived: true },
      });
      expect(res).toMatchObject({ status: 404, body: { message: 'Project not found' } });
    });
  });

  describe('DELETE /projects/{id}', () => {
    it('answers 204 with an empty body; the project is gone', async () => {
      const id = await create();
      const res = await t.request('DELETE', `/v1/projects/${id}`, { token: keys.fullKey });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await get(id)).toMatchObject({ status: 404, body: { message: 'Project not found' } });
      expect(await t.request('DELETE', `/v1/projects/${id}`, { token: keys.fullKey })).toMatchObject({
        status: 404,
        body: { message: 'Project not found' },
      });
    });

    it('does not delete another workspace’s project', async () => {
      const other = await t.provision({ name: 'Other3' });
      const theirs = await create({}, other.fullKey);
      expect((await t.request('DELETE', `/v1/projects/${theirs}`, { token: keys.fullKey })).status).toBe(404);
      expect((await get(theirs, other.fullKey)).status).toBe(200);
    });
  });

  describe('project limit of the plan', () => {
    it('answers 429 at the limit; deleting frees a slot; raising the limit allows more', async () => {
      const ws = await t.provision({ projectLimit: 2, name: 'Small' });
      const a = await create({}, ws.fullKey);
      await create({}, ws.fullKey);
      const refused = await post(valid, ws.fullKey);
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 429,
        body: { message: 'Project limit reached for the workspace plan' },
      });
      await t.request('DELETE', `/v1/projects/${a}`, { token: ws.fullKey });
      await create({}, ws.fullKey);
      expect((await post(valid, ws.fullKey)).status).toBe(429);
      await t.admin('PATCH', `/workspaces/${ws.workspaceId}`, { project_limit: 3 });
      await create({}, ws.fullKey);
    });

    it('holds under concurrent creates: never more projects than the limit', async () => {
      const ws = await t.provision({ projectLimit: 5, name: 'Racy' });
      const results = await Promise.all(Array.from({ length: 20 }, () => post(valid, ws.fullKey)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
      const listed = await t.request('GET', '/v1/projects', { token: ws.fullKey });
      expect(listed.body.count).toBe(5);
    });
  });

  it('applies concurrent PATCHes of different fields all together', async () => {
    const id = await create();
    const results = await Promise.all([
      patch(id, { name: 'N1' }),
      patch(id, { description: 'D1' }),
      patch(id, { status: 'in_progress' }),
      patch(id, { laanc_number: 'L1' }),
      patch(id, { external_id: 'E1' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await get(id)).body).toMatchObject({
      name: 'N1',
      description: 'D1',
      status: 'in_progress',
      laanc_number: 'L1',
      external_id: 'E1',
    });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await t.request('GET', '/v1/nothing-here', { token: keys.fullKey });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Route GET /v1/nothing-here not found' });
  });
});
