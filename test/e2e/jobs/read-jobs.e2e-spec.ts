import { keys, other, useJobsApp, createProject, get, create, expect404, t, projectId, jobsPath } from './jobs-fixture';

describe('Jobs (docs/api.md, Jobs) over HTTP', () => {
  useJobsApp();

  describe('GET /projects/{projectId}/jobs/{jobId}', () => {
    it('answers 404 Job not found for a missing job, another project’s job and another workspace’s job', async () => {
      expect404(await get('job_missing'), 'Job not found');
      const sibling = await createProject(keys);
      const elsewhere = await create({}, sibling);
      expect404(await get(elsewhere), 'Job not found');
      expect((await get(elsewhere, sibling)).status).toBe(200);
      const theirProject = await createProject(other);
      const theirs = await create({}, theirProject, other.fullKey);
      expect404(await get(theirs), 'Job not found');
      expect404(await get(theirs, theirProject), 'Project not found');
    });
  });

  describe('GET /projects/{projectId}/jobs', () => {
    it('pages 50 at a time in creation order, only this project’s jobs, with project_id', async () => {
      const pid = await createProject(keys);
      const ids: string[] = [];
      for (let i = 0; i < 60; i++) ids.push(await create({ name: `J${i}` }, pid));
      await create({}, projectId); // another project's job is not listed
      const first = await t.request('GET', jobsPath(pid), { token: keys.readKey });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ count: 50, project_id: pid, cursor: expect.any(String) });
      expect(Object.keys(first.body).sort()).toEqual(['count', 'cursor', 'jobs', 'project_id']);
      const second = await t.request('GET', `${jobsPath(pid)}?cursor=${first.body.cursor}`, { token: keys.readKey });
      expect(second.body).toMatchObject({ count: 10, cursor: null, project_id: pid });
      const listed = [...first.body.jobs, ...second.body.jobs];
      expect(listed.map((j: { id: string }) => j.id)).toEqual(ids);
      expect(listed[0]).toEqual((await get(ids[0], pid)).body);
    });

    it('answers 404 for a missing or foreign project and 400 for a bad cursor', async () => {
      expect404(await t.request('GET', jobsPath('prj_missing'), { token: keys.readKey }), 'Project not found');
      const theirs = await createProject(other);
      expect404(await t.request('GET', jobsPath(theirs), { token: keys.readKey }), 'Project not found');
      const bad = await t.request('GET', `${jobsPath()}?cursor=nonsense!`, { token: keys.readKey });
      expect({ status: bad.status, body: bad.body }).toEqual({ status: 400, body: { message: 'cursor is invalid' } });
    });
  });
});
