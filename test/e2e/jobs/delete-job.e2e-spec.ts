import {
  t,
  keys,
  other,
  useJobsApp,
  createProject,
  jobsPath,
  get,
  occurrences,
  create,
  expect404,
} from './jobs-fixture';

describe('Jobs (docs/api.md, Jobs) over HTTP', () => {
  useJobsApp();

  describe('DELETE /projects/{projectId}/jobs/{jobId}', () => {
    it('answers 204 with an empty body; the job and its occurrences are gone', async () => {
      const id = await create();
      const res = await t.request('DELETE', `${jobsPath()}/${id}`, { token: keys.fullKey });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect404(await get(id), 'Job not found');
      expect404(await occurrences(id), 'Job not found');
      expect404(await t.request('DELETE', `${jobsPath()}/${id}`, { token: keys.fullKey }), 'Job not found');
    });

    it('answers 404 for another workspace’s job and leaves it alone', async () => {
      const theirProject = await createProject(other);
      const theirs = await create({}, theirProject, other.fullKey);
      expect404(await t.request('DELETE', `${jobsPath()}/${theirs}`, { token: keys.fullKey }), 'Job not found');
      expect404(
        await t.request('DELETE', `${jobsPath(theirProject)}/${theirs}`, { token: keys.fullKey }),
        'Project not found',
      );
      expect((await get(theirs, theirProject, other.fullKey)).status).toBe(200);
    });
  });
});
