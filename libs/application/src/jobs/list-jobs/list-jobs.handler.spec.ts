import { jobStream, PROJECT_NOT_FOUND, projectStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { ListJobsHandler } from './list-jobs.handler';
import { ListJobsQuery } from './list-jobs.query';

describe('ListJobsHandler (embedded read models)', () => {
  const spec = handlerSpec();
  const list = (...args: ConstructorParameters<typeof ListJobsQuery>) =>
    new ListJobsHandler(spec.read).execute(new ListJobsQuery(...args));
  const ids = (page: { jobs: { id: string }[] }) => page.jobs.map((j) => j.id);

  beforeEach(async () => {
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
    await spec.given(jobStream('job_1'), given.jobCreated('job_1', 'ws_1', 'prj_1'));
    await spec.given(jobStream('job_2'), given.jobCreated('job_2', 'ws_1', 'prj_1'), {
      type: 'job.updated',
      data: { id: 'job_2', workspace_id: 'ws_1', project_id: 'prj_1', changes: { status: 'completed' }, updated: NOW },
    });
  });

  it("lists a project's jobs, all of them or those of some statuses", async () => {
    expect(ids(await list('ws_1', 'prj_1'))).toEqual(['job_1', 'job_2']);
    expect(ids(await list('ws_1', 'prj_1', undefined, ['completed']))).toEqual(['job_2']);
    expect(ids(await list('ws_1', 'prj_1', undefined, ['not_started', 'completed']))).toEqual(['job_1', 'job_2']);
    expect(ids(await list('ws_1', 'prj_1', undefined, ['on_hold']))).toEqual([]);
  });

  it("another workspace's project is not found", async () => {
    await expect(list('ws_2', 'prj_1')).rejects.toMatchObject({ message: PROJECT_NOT_FOUND });
  });
});
