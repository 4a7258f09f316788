import { keys, other, useJobsApp, createProject, get, create, expect404 } from './jobs-fixture';

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
});
