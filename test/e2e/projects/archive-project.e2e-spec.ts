import { t, keys, useProjectsApp, get, create } from './projects-fixture';

describe('Projects (docs/api.md, Projects) over HTTP', () => {
  useProjectsApp();

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
});
