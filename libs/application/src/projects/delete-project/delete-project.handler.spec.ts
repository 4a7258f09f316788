import {
  jobStream,
  PROJECT_NOT_FOUND,
  projectJobsStream,
  projectStream,
  workspaceDecider,
  workspaceStream,
} from '@app/domain';
import { STALE_IF_MATCH } from '../../shared/event-sourced-repository';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { DeleteProjectCommand } from './delete-project.command';
import { DeleteProjectHandler } from './delete-project.handler';

describe('DeleteProjectHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const remove = (options: { workspaceId?: string; expectedRevision?: number; projectId?: string } = {}) =>
    new DeleteProjectHandler(spec.repository, spec.clock, spec.read).execute(
      new DeleteProjectCommand(
        spec.context(options.workspaceId ?? 'ws_1'),
        options.projectId ?? 'prj_1',
        options.expectedRevision,
      ),
    );
  const slotReserved = (projectId: string) =>
    ({ type: 'workspace.project_slot_reserved', data: { workspace_id: 'ws_1', project_id: projectId } }) as const;

  beforeEach(async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1', 3), slotReserved('prj_1'));
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
  });

  it('deletes the project, each of its live jobs, and gives its slot back last', async () => {
    await spec.given(jobStream('job_1'), given.jobCreated('job_1', 'ws_1', 'prj_1'));
    await spec.given(jobStream('job_2'), given.jobCreated('job_2', 'ws_1', 'prj_1'), {
      type: 'job.deleted',
      data: { id: 'job_2', workspace_id: 'ws_1', project_id: 'prj_1', deleted: 1 },
    });
    // job_1 predates the project's job list (the read models know it); job_3 is on that list.
    await spec.given(projectJobsStream('prj_1'), {
      type: 'project.job_added',
      data: { workspace_id: 'ws_1', project_id: 'prj_1', job_id: 'job_3' },
    });
    await spec.given(jobStream('job_3'), given.jobCreated('job_3', 'ws_1', 'prj_1'));

    const { events } = await spec.when(() => remove());

    const ref = { workspace_id: 'ws_1', project_id: 'prj_1' };
    expect(events).toEqual([
      { streamId: 'project-prj_1', type: 'project.deleted', data: { id: 'prj_1', workspace_id: 'ws_1', deleted: NOW } },
      { streamId: 'job-job_3', type: 'job.deleted', data: { id: 'job_3', ...ref, deleted: NOW } },
      { streamId: 'job-job_1', type: 'job.deleted', data: { id: 'job_1', ...ref, deleted: NOW } },
      { streamId: 'workspace-ws_1', type: 'workspace.project_slot_released', data: ref },
    ]);
    const { state } = await spec.repository.load(workspaceDecider, workspaceStream('ws_1'));
    expect(state.projectSlots).toBe(0);
  });

  it('a deleted project is not found the second time, and releases nothing more', async () => {
    await remove();

    await spec.whenRefused(() => remove(), 'not_found', PROJECT_NOT_FOUND);
  });

  it('a deleted project whose cascade stopped part way (a live job, its slot held) is finished, not "not found"', async () => {
    const projectDeleted = {
      type: 'project.deleted',
      data: { id: 'prj_1', workspace_id: 'ws_1', deleted: 1 },
    } as const;
    await spec.given(projectStream('prj_1'), projectDeleted);
    await spec.given(projectJobsStream('prj_1'), {
      type: 'project.job_added',
      data: { workspace_id: 'ws_1', project_id: 'prj_1', job_id: 'job_1' },
    });
    await spec.given(jobStream('job_1'), given.jobCreated('job_1', 'ws_1', 'prj_1'));

    const { events } = await spec.when(() => remove());

    expect(events.map((e) => [e.streamId, e.type])).toEqual([
      ['job-job_1', 'job.deleted'],
      ['workspace-ws_1', 'workspace.project_slot_released'],
    ]);
    await spec.whenRefused(() => remove(), 'not_found', PROJECT_NOT_FOUND);
  });

  it('a stale If-Match is refused; a current one deletes', async () => {
    await spec.whenRefused(() => remove({ expectedRevision: 3 }), 'precondition_failed', STALE_IF_MATCH);

    const { events } = await spec.when(() => remove({ expectedRevision: 0 }));
    expect(events.map((e) => e.type)).toEqual(['project.deleted', 'workspace.project_slot_released']);
  });

  it("another workspace's project is not found (before any If-Match is looked at) and keeps its jobs", async () => {
    await spec.given(jobStream('job_1'), given.jobCreated('job_1', 'ws_1', 'prj_1'));

    await spec.whenRefused(() => remove({ workspaceId: 'ws_2' }), 'not_found', PROJECT_NOT_FOUND);
    await spec.whenRefused(() => remove({ workspaceId: 'ws_2', expectedRevision: 9 }), 'not_found', PROJECT_NOT_FOUND);
    await spec.whenRefused(() => remove({ projectId: 'prj_404' }), 'not_found', PROJECT_NOT_FOUND);
  });
});
