import { HttpResult } from '../../support/test-app';
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
  plusDays,
  Keys,
  pilotA,
  start,
  valid,
  post,
  assign,
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

  describe('deleting a project', () => {
    const events = async (ws: Keys, type: string) => {
      const all: { change: { id: string; project_id: string } }[] = [];
      let cursor: string | null = null;
      do {
        const res: HttpResult = await t.request('GET', `/v1/events?type=${type}${cursor ? `&cursor=${cursor}` : ''}`, {
          token: ws.readKey,
        });
        expect(res.status).toBe(200);
        all.push(...res.body.events);
        cursor = res.body.cursor;
      } while (cursor);
      return all;
    };

    it('deletes its jobs, their occurrences and assignments, recording job.deleted for each', async () => {
      const pid = await createProject(keys);
      const a = await create(
        { job_pattern: 'recurring', recurring_frequency: 'weekly', end_date: plusDays(start, 30) },
        pid,
      );
      const b = await create({}, pid);
      const keep = await create({}); // a job of another project stays
      await assign(a, { pilots: [pilotA] }, pid);
      const res = await t.request('DELETE', `/v1/projects/${pid}`, { token: keys.fullKey });
      expect(res.status).toBe(204);
      expect404(await get(a, pid), 'Project not found');
      expect404(await occurrences(a, '', pid), 'Project not found');
      expect((await get(keep)).status).toBe(200);
      const deleted = (await events(keys, 'job.deleted'))
        .filter((e) => e.change.project_id === pid)
        .map((e) => e.change.id);
      expect(deleted.sort()).toEqual([a, b].sort());
      const history = await t.request('GET', `/v1/projects/${pid}/jobs/${a}/history`, { token: keys.readKey });
      expect(history.body.history.map((e: { type: string }) => e.type)).toEqual([
        'job.created',
        'job.pilots_assigned',
        'job.deleted',
      ]);
    });

    it('leaves no job behind when jobs are created while the project is being deleted', async () => {
      const pid = await createProject(keys);
      await Promise.all(Array.from({ length: 5 }, () => create({}, pid)));
      const racing = Array.from({ length: 30 }, () => post(valid(), pid));
      const deletion = t.request('DELETE', `/v1/projects/${pid}`, { token: keys.fullKey });
      const results = await Promise.all([...racing, deletion]);
      expect((await deletion).status).toBe(204);
      for (const r of results.slice(0, 30)) expect([201, 404]).toContain(r.status);
      const created = (await events(keys, 'job.created'))
        .filter((e) => e.change.project_id === pid)
        .map((e) => e.change.id);
      const deleted = (await events(keys, 'job.deleted'))
        .filter((e) => e.change.project_id === pid)
        .map((e) => e.change.id);
      expect(created.length).toBeGreaterThanOrEqual(5);
      expect(deleted.sort()).toEqual(created.sort());
    });
  });
});
