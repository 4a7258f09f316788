import { JOB_MESSAGES, JOB_NOT_FOUND, jobStream, jobTypeStream, PROJECT_NOT_FOUND, projectStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { UpdateJobCommand } from './update-job.command';
import { UpdateJobHandler } from './update-job.handler';

describe('UpdateJobHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const update = (
    changes: UpdateJobCommand['changes'],
    options: { workspaceId?: string; projectId?: string; jobId?: string } = {},
  ) =>
    new UpdateJobHandler(spec.repository, spec.read, spec.clock).execute(
      new UpdateJobCommand(
        spec.context(options.workspaceId ?? 'ws_1'),
        options.projectId ?? 'prj_1',
        options.jobId ?? 'job_1',
        changes,
      ),
    );

  beforeEach(async () => {
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
    await spec.given(projectStream('prj_2'), given.projectCreated('prj_2', 'ws_1'));
    await spec.given(jobStream('job_1'), given.jobCreated('job_1', 'ws_1', 'prj_1'));
  });

  it('records only what changes, and the reason of status "other"', async () => {
    const { result, events } = await spec.when(() =>
      update({ name: 'Facade scan', priority: 'high', status: 'other', other_status_reason: 'wind' }),
    );

    expect(result).toEqual({ revision: 1 });
    expect(events).toEqual([
      {
        streamId: 'job-job_1',
        type: 'job.updated',
        data: {
          id: 'job_1',
          workspace_id: 'ws_1',
          project_id: 'prj_1',
          changes: { priority: 'high', status: 'other', other_status_reason: 'wind' },
          updated: NOW,
        },
      },
    ]);
  });

  it('an unknown type is refused, but sending back the type a job has never is', async () => {
    await spec.given(jobTypeStream('jbt_gone'), {
      type: 'job_type.created',
      data: { id: 'jbt_gone', workspace_id: 'ws_1', name: 'Gone', icon: 'x', created: 1 },
    });
    await update({ type: 'jbt_gone' });
    await spec.given(jobTypeStream('jbt_gone'), {
      type: 'job_type.deleted',
      data: { id: 'jbt_gone', workspace_id: 'ws_1', deleted: 2 },
    });

    const { events } = await spec.when(() => update({ type: 'jbt_gone', name: 'Renamed' }));
    expect(events.map((e) => e.data)).toEqual([
      { id: 'job_1', workspace_id: 'ws_1', project_id: 'prj_1', changes: { name: 'Renamed' }, updated: NOW },
    ]);
    await spec.whenRefused(() => update({ type: 'made_up' }), 'validation', JOB_MESSAGES.typeUnknown);
  });

  it('a job of another project of the workspace, or a missing one, is not found', async () => {
    await spec.whenRefused(() => update({ name: 'x' }, { projectId: 'prj_2' }), 'not_found', JOB_NOT_FOUND);
    await spec.whenRefused(() => update({ name: 'x' }, { jobId: 'job_404' }), 'not_found', JOB_NOT_FOUND);
  });

  it("another workspace's project is not found before its job is looked at", async () => {
    await spec.whenRefused(() => update({ name: 'x' }, { workspaceId: 'ws_2' }), 'not_found', PROJECT_NOT_FOUND);
  });

  it('a deleted job is not found', async () => {
    await spec.given(jobStream('job_1'), {
      type: 'job.deleted',
      data: { id: 'job_1', workspace_id: 'ws_1', project_id: 'prj_1', deleted: 1 },
    });

    await spec.whenRefused(() => update({ name: 'x' }), 'not_found', JOB_NOT_FOUND);
  });
  it('a project deleted by another process after this one held it: the update is not found, nothing is written', async () => {
    await update({ name: 'First' }); // this process now holds the project's and the job's states
    // Appended straight to the store, as another process would: this process's states do not know.
    await spec.given(projectStream('prj_1'), {
      type: 'project.deleted',
      data: { id: 'prj_1', workspace_id: 'ws_1', deleted: NOW - 1 },
    });
    await spec.whenRefused(() => update({ name: 'Second' }), 'not_found', PROJECT_NOT_FOUND);
  });

  it('a change to what the job held here says, after another process changed it, is decided on the current job', async () => {
    await update({ name: 'Mine' });
    await spec.given(jobStream('job_1'), {
      type: 'job.updated',
      data: { id: 'job_1', workspace_id: 'ws_1', project_id: 'prj_1', changes: { name: 'Theirs' }, updated: NOW },
    });
    const { result, events } = await spec.when(() => update({ name: 'Mine' }));
    expect(result).toEqual({ revision: 3 });
    expect(events.map((e) => e.data)).toEqual([
      { id: 'job_1', workspace_id: 'ws_1', project_id: 'prj_1', changes: { name: 'Mine' }, updated: NOW },
    ]);
  });
});
