import { t, valid, useProjectsApp, post, create } from './projects-fixture';

describe('Projects (docs/api.md, Projects) over HTTP', () => {
  useProjectsApp();

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
});
