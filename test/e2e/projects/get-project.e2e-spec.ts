import { t, keys, useProjectsApp, get, create } from './projects-fixture';

describe('Projects (docs/api.md, Projects) over HTTP', () => {
  useProjectsApp();

  describe('GET /projects/{id}', () => {
    it('answers 404 Project not found for unknown ids and for another workspace’s project', async () => {
      expect(await get('prj_missing')).toMatchObject({ status: 404, body: { message: 'Project not found' } });
      const other = await t.provision({ name: 'Other' });
      const theirs = await create({}, other.fullKey);
      expect(await get(theirs)).toMatchObject({ status: 404, body: { message: 'Project not found' } });
      expect((await get(theirs, other.readKey)).status).toBe(200);
    });
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await t.request('GET', '/v1/nothing-here', { token: keys.fullKey });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Route GET /v1/nothing-here not found' });
  });
});
