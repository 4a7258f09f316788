import { t, keys, useProjectsApp, get, create } from './projects-fixture';

describe('Projects (docs/api.md, Projects) over HTTP', () => {
  useProjectsApp();

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
});
