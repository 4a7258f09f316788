import { useProvisionedApp, Keys } from '../support/test-app';

type JobType = { id: string; name: string; icon: string; is_predefined: boolean };

describe('Job types (docs/api.md, Job types) over HTTP', () => {
  const { t, keys } = useProvisionedApp({ RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_SECOND: '1000000' });
  let other: Keys;

  beforeAll(async () => {
    other = await t.provision({ name: 'Other' });
  });

  const list = (ws: Keys, cursor?: string) =>
    t.request('GET', `/v1/job-types${cursor ? `?cursor=${cursor}` : ''}`, { token: ws.readKey });
  const post = (body: unknown, ws: Keys = keys, token = ws.fullKey) =>
    t.request('POST', '/v1/job-types', { token, body });
  const remove = (id: string, ws: Keys = keys) => t.request('DELETE', `/v1/job-types/${id}`, { token: ws.fullKey });
  const listAll = async (ws: Keys) => {
    const all: JobType[] = [];
    const counts: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(ws, cursor ?? undefined);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(res.body.job_types.length);
      counts.push(res.body.count);
      all.push(...res.body.job_types);
      cursor = res.body.cursor;
    } while (cursor);
    return { all, counts };
  };

  it('lists the predefined types, including the ones docs/api.md names, with is_predefined true', async () => {
    const res = await list(keys);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['count', 'cursor', 'job_types']);
    expect(res.body.cursor).toBeNull();
    const types = res.body.job_types as JobType[];
    expect(types.length).toBeGreaterThanOrEqual(5);
    for (const id of ['drone_inspection', 'thermal_inspection', '3d_mapping', 'wind_turbine', 'cell_tower']) {
      expect(types).toContainEqual({ id, name: expect.any(String), icon: expect.any(String), is_predefined: true });
    }
    for (const type of types) {
      expect(Object.keys(type)).toEqual(['id', 'name', 'icon', 'is_predefined']);
      expect(type.is_predefined).toBe(true);
    }
  });

  it('creates a custom type (201 { id }, icon settings by default), listed after the predefined ones', async () => {
    const res = await post({ name: 'Dam survey' });
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: { id: expect.any(String) } });
    const withIcon = await post({ name: 'Flood mapping', icon: 'droplet' });
    const { all } = await listAll(keys);
    const firstCustom = all.findIndex((type) => !type.is_predefined);
    expect(all.slice(firstCustom).every((type) => !type.is_predefined)).toBe(true);
    expect(all.slice(firstCustom, firstCustom + 2)).toEqual([
      { id: res.body.id, name: 'Dam survey', icon: 'settings', is_predefined: false },
      { id: withIcon.body.id, name: 'Flood mapping', icon: 'droplet', is_predefined: false },
    ]);
    expect(all.filter((type) => type.id === res.body.id)).toHaveLength(1);
  });

  it('accepts a 50-character name and a 20-character icon', async () => {
    expect((await post({ name: 'n'.repeat(50), icon: 'i'.repeat(20) })).status).toBe(201);
  });

  it.each<[string, object, string]>([
    ['missing name', {}, 'name is required'],
    ['null name', { name: null }, 'name is required'],
    ['empty name', { name: '' }, 'name must be between 1 and 50 characters'],
    ['long name', { name: 'n'.repeat(51) }, 'name must be between 1 and 50 characters'],
    ['numeric name', { name: 12 }, 'name must be a string'],
    ['numeric icon', { name: 'X', icon: 5 }, 'icon must be a string'],
    ['null icon', { name: 'X', icon: null }, 'icon must be a string'],
    ['empty icon', { name: 'X', icon: '' }, 'icon must not be empty'],
    ['long icon', { name: 'X', icon: 'i'.repeat(21) }, 'icon must be less than 20 characters'],
    ['unknown field', { name: 'X', is_predefined: true }, 'is_predefined is not an allowed field'],
  ])('refuses %s with 400', async (_name, body, message) => {
    const before = (await listAll(keys)).all.length;
    const res = await post(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
    expect((await listAll(keys)).all.length).toBe(before);
  });

  it('refuses a read-only key', async () => {
    expect(await post({ name: 'X' }, keys, keys.readKey)).toMatchObject({
      status: 403,
      body: { code_name: 'read_only_access' },
    });
  });

  describe('DELETE /job-types/{id}', () => {
    it('deletes a custom type: 204, empty body, gone from the list, then 404', async () => {
      const { body } = await post({ name: 'Short-lived' });
      const res = await remove(body.id);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await listAll(keys)).all.map((type) => type.id)).not.toContain(body.id);
      expect(await remove(body.id)).toMatchObject({ status: 404, body: { message: 'Job Type not found' } });
    });

    it('refuses to delete a predefined type with 400', async () => {
      for (const id of ['drone_inspection', 'cell_tower']) {
        const res = await remove(id);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: { message: 'Cannot delete predefined job types' },
        });
      }
      expect((await list(keys)).body.job_types.map((type: JobType) => type.id)).toContain('cell_tower');
    });

    it('answers 404 Job Type not found for unknown ids and another workspace’s type, which stays', async () => {
      expect(await remove('jbt_missing')).toMatchObject({ status: 404, body: { message: 'Job Type not found' } });
      const theirs = await post({ name: 'Theirs' }, other);
      expect(await remove(theirs.body.id)).toMatchObject({ status: 404, body: { message: 'Job Type not found' } });
      expect((await listAll(other)).all.map((type) => type.id)).toContain(theirs.body.id);
    });
  });

  it('pages 50 at a time: predefined first, then custom types in creation order, per workspace', async () => {
    const ws = await t.provision({ name: 'Many types' });
    const predefined = (await list(ws)).body.count as number;
    const custom: string[] = [];
    const total = 2 * 50 - predefined + 7; // two full pages and a bit
    for (let i = 0; i < total; i++) custom.push((await post({ name: `Custom ${i}` }, ws)).body.id);
    const { all, counts } = await listAll(ws);
    expect(counts).toEqual([50, 50, 7]);
    expect(all.slice(0, predefined).every((type) => type.is_predefined)).toBe(true);
    expect(all.slice(predefined).map((type) => type.id)).toEqual(custom);
    const bad = await list(ws, 'not-a-cursor!');
    expect({ status: bad.status, body: bad.body }).toEqual({ status: 400, body: { message: 'cursor is invalid' } });
    // Another workspace sees none of them.
    expect((await listAll(keys)).all.some((type) => custom.includes(type.id))).toBe(false);
  });
});
