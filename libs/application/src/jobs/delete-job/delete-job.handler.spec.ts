import { JOB_NOT_FOUND, jobStream, PROJECT_NOT_FOUND, projectStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { DeleteJobCommand } from './delete-job.command';
import { DeleteJobHandler } from './delete-job.handler';

describe('DeleteJobHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const remove = (options: { workspaceId?: string; projectId?: string; jobId?: string } = {}) =>
    new DeleteJobHandler(spec.repository, spec.clock).execute(
      new DeleteJobCommand(
        spec.context(options.workspaceId ?? 'ws_1'),
        options.projectId ?? 'prj_1',
        options.jobId ?? 'job_1',
      ),
    );

  beforeEach(async () => {
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
    await spec.given(projectStream('prj_2'), given.projectCreated('prj_2', 'ws_1'));
    await spec.given(jobStream('job_1'), given.jobCreated('job_1', 'ws_1', 'prj_1'));
  });

  it('records the deletion of the job', async () => {
    const { events } = await spec.when(() => remove());

    expect(events).toEqual([
      {
        streamId: 'job-job_1',
        type: 'job.deleted',
        data: { id: 'job_1', workspace_id: 'ws_1', project_id: 'prj_1', deleted: NOW },
      },
    ]);
  });

  it('a deleted job is not found the second time', async () => {
    await remove();

    await spec.whenRefused(() => remove(), 'not_found', JOB_NOT_FOUND);
  });

  it('a job named under another project, or another workspace, is not found', async () => {
    await spec.whenRefused(() => remove({ projectId: 'prj_2' }), 'not_found', JOB_NOT_FOUND);
    await spec.whenRefused(() => remove({ workspaceId: 'ws_2' }), 'not_found', PROJECT_NOT_FOUND);
  });

  it('a job of a deleted project is not found through that project', async () => {
    await spec.given(projectStream('prj_1'), {
      type: 'project.deleted',
      data: { id: 'prj_1', workspace_id: 'ws_1', deleted: 1 },
    });

    await spec.whenRefused(() => remove(), 'not_found', PROJECT_NOT_FOUND);
  });
});
