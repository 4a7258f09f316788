import { OTHER_STATUS_REASON_REQUIRED, PROJECT_NOT_FOUND, projectStream } from '@app/domain';
import { STALE_IF_MATCH } from '../../shared/event-sourced-repository';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { UpdateProjectCommand } from './update-project.command';
import { UpdateProjectHandler } from './update-project.handler';

describe('UpdateProjectHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const update = (
    changes: UpdateProjectCommand['changes'],
    options: { workspaceId?: string; expectedRevision?: number; projectId?: string } = {},
  ) =>
    new UpdateProjectHandler(spec.repository, spec.clock).execute(
      new UpdateProjectCommand(
        spec.context(options.workspaceId ?? 'ws_1'),
        options.projectId ?? 'prj_1',
        changes,
        options.expectedRevision,
      ),
    );

  beforeEach(async () => {
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
  });

  it('records only the fields that change, with the reason that goes with status "other"', async () => {
    const { result, events } = await spec.when(() =>
      update({ name: 'Dam', description: 'Spillway', status: 'other', other_status_reason: 'permit' }),
    );

    expect(result).toEqual({ revision: 1 });
    expect(events).toEqual([
      {
        streamId: 'project-prj_1',
        type: 'project.updated',
        data: {
          id: 'prj_1',
          workspace_id: 'ws_1',
          changes: { name: 'Dam', status: 'other', other_status_reason: 'permit' },
          updated: NOW,
        },
      },
    ]);
  });

  it('a change to what the project already holds records nothing and keeps its revision', async () => {
    const { result, events } = await spec.when(() => update({ name: 'Dam inspection' }));

    expect(result).toEqual({ revision: 0 });
    expect(events).toEqual([]);
  });

  it('a matching If-Match is accepted; a stale one is refused', async () => {
    await update({ name: 'Dam' }, { expectedRevision: 0 });

    await spec.whenRefused(
      () => update({ name: 'Other' }, { expectedRevision: 0 }),
      'precondition_failed',
      STALE_IF_MATCH,
    );
  });

  it('status "other" without its reason is refused', async () => {
    await spec.whenRefused(() => update({ status: 'other' }), 'validation', OTHER_STATUS_REASON_REQUIRED);
  });

  it("another workspace's project is not found, even with a stale If-Match (no existence oracle)", async () => {
    await spec.whenRefused(() => update({ name: 'x' }, { workspaceId: 'ws_2' }), 'not_found', PROJECT_NOT_FOUND);
    await spec.whenRefused(
      () => update({ name: 'x' }, { workspaceId: 'ws_2', expectedRevision: 7 }),
      'not_found',
      PROJECT_NOT_FOUND,
    );
  });

  it('a deleted or missing project is not found', async () => {
    await spec.given(projectStream('prj_1'), {
      type: 'project.deleted',
      data: { id: 'prj_1', workspace_id: 'ws_1', deleted: 1 },
    });

    await spec.whenRefused(() => update({ name: 'x' }), 'not_found', PROJECT_NOT_FOUND);
    await spec.whenRefused(() => update({ name: 'x' }, { projectId: 'prj_404' }), 'not_found', PROJECT_NOT_FOUND);
  });
});
