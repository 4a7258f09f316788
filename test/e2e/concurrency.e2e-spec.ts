import { useProvisionedApp } from '../support/test-app';

/** Optimistic concurrency over HTTP: ETag on reads, If-Match on writes (docs/limits.md). */
describe('ETag and If-Match', () => {
  const { t, keys } = useProvisionedApp();
  const valid = { name: 'Dam inspection', description: 'Spillway', status: 'planned', start_date: '2026-12-01' };

  const create = async (token = keys.fullKey) => {
    const res = await t.request('POST', '/v1/projects', { token, body: valid });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const get = (id: string, headers: Record<string, string> = {}) =>
    t.request('GET', `/v1/projects/${id}`, { token: keys.fullKey, headers });
  const patch = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    t.request('PATCH', `/v1/projects/${id}`, { token: keys.fullKey, body, headers });

  it('gives a single project a strong ETag, its stream revision, which moves with each change', async () => {
    const id = await create();
    const first = await get(id);
    expect(first.headers.get('etag')).toBe('"0"');
    const changed = await patch(id, { name: 'Renamed' });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe('"1"');
    expect((await get(id)).headers.get('etag')).toBe('"1"');
    // A PATCH that changes nothing records nothing: same revision.
    expect((await patch(id, { name: 'Renamed' })).headers.get('etag')).toBe('"1"');
    const archived = await t.request('POST', `/v1/projects/${id}/archive`, {
      token: keys.fullKey,
      body: { archived: true },
    });
    expect(archived.headers.get('etag')).toBe('"2"');
    // Lists carry no ETag: a page has no single revision.
    expect((await t.request('GET', '/v1/projects', { token: keys.fullKey })).headers.get('etag')).toBeNull();
  });

  it('answers a matching If-None-Match with a bodiless 304', async () => {
    const id = await create();
    const etag = (await get(id)).headers.get('etag')!;
    const notModified = await get(id, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    expect((await get(id, { 'if-none-match': `"x", W/${etag}` })).status).toBe(304);
    await patch(id, { description: 'changed' });
    const modified = await get(id, { 'if-none-match': etag });
    expect(modified.status).toBe(200);
    expect(modified.body.description).toBe('changed');
  });

  it('refuses a PATCH with a stale If-Match with 412 and changes nothing; the current one passes', async () => {
    const id = await create();
    await patch(id, { name: 'Second' });
    const stale = await patch(id, { name: 'Lost update' }, { 'if-match': '"0"' });
    expect({ status: stale.status, body: stale.body }).toEqual({
      status: 412,
      body: { message: 'The resource has changed since the version given in If-Match' },
    });
    expect((await get(id)).body.name).toBe('Second');
    const current = await patch(id, { name: 'Third' }, { 'if-match': '"1"' });
    expect(current.status).toBe(200);
    expect(current.headers.get('etag')).toBe('"2"');
    expect((await patch(id, { name: 'Any' }, { 'if-match': '*' })).status).toBe(200);
  });

  it('guards DELETE and archive with If-Match too', async () => {
    const id = await create();
    await patch(id, { name: 'Moved on' });
    const archive = (ifMatch: string) =>
      t.request('POST', `/v1/projects/${id}/archive`, {
        token: keys.fullKey,
        body: { archived: true },
        headers: { 'if-match': ifMatch },
      });
    expect((await archive('"0"')).status).toBe(412);
    expect((await get(id)).body.archived).toBe(false);
    expect((await archive('"1"')).status).toBe(200);

    const remove = (ifMatch: string) =>
      t.request('DELETE', `/v1/projects/${id}`, { token: keys.fullKey, headers: { 'if-match': ifMatch } });
    const stale = await remove('"1"');
    expect(stale.status).toBe(412);
    expect(typeof stale.body.message).toBe('string');
    expect((await get(id)).status).toBe(200);
    expect((await remove('"2"')).status).toBe(204);
    expect((await get(id)).status).toBe(404);
  });

  it('lets exactly one of many concurrent writers holding the same ETag win', async () => {
    const id = await create();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => patch(id, { name: `Writer ${i}` }, { 'if-match': '"0"' })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(9);
    const winner = results.findIndex((r) => r.status === 200);
    expect((await get(id)).body.name).toBe(`Writer ${winner}`);
  });

  it('answers 404, not 412, for a project of another workspace or none, whatever the If-Match', async () => {
    const other = await t.provision({ name: 'Other' });
    const theirs = await create(other.fullKey);
    for (const ifMatch of ['"0"', '"7"']) {
      expect(await patch(theirs, { name: 'x' }, { 'if-match': ifMatch })).toMatchObject({
        status: 404,
        body: { message: 'Project not found' },
      });
      expect(await patch('prj_missing', { name: 'x' }, { 'if-match': ifMatch })).toMatchObject({ status: 404 });
      const del = await t.request('DELETE', `/v1/projects/${theirs}`, {
        token: keys.fullKey,
        headers: { 'if-match': ifMatch },
      });
      expect(del.status).toBe(404);
    }
  });

  it('explains malformed and never-matching If-Match values', async () => {
    const id = await create();
    const bare = await patch(id, { name: 'x' }, { 'if-match': '0' });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toMatch(/If-Match must be an entity tag/);
    const list = await patch(id, { name: 'x' }, { 'if-match': '"0", "1"' });
    expect(list.status).toBe(400);
    expect(list.body.message).toMatch(/single entity tag/);
    const weak = await patch(id, { name: 'x' }, { 'if-match': 'W/"0"' });
    expect(weak.status).toBe(412);
    expect(weak.body.message).toMatch(/weak entity tag/);
    expect((await patch(id, { name: 'x' }, { 'if-match': '"abc"' })).status).toBe(412);
    expect((await get(id)).body.name).toBe(valid.name);
  });

  it('applies 50 concurrent PATCHes of different fields of one project, none lost', async () => {
    const id = await create();
    const fields = ['name', 'description', 'external_id', 'laanc_number'] as const;
    const sent = Array.from({ length: 50 }, (_, i) => ({ field: fields[i % fields.length], value: `v${i}` }));
    const results = await Promise.all(sent.map(({ field, value }) => patch(id, { [field]: value })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const after = await get(id);
    // Every PATCH changed a value, so every one recorded an event: the revision counts them all.
    expect(after.headers.get('etag')).toBe('"50"');
    for (const field of fields) {
      expect(sent.filter((s) => s.field === field).map((s) => s.value)).toContain(after.body[field]);
    }
    // Each response's ETag is the revision right after its own change: all distinct, 1..50.
    const revisions = results.map((r) => Number(JSON.parse(r.headers.get('etag')!))).sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});
