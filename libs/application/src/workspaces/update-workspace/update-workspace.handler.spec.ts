import { OPERATOR, WORKSPACE_NOT_FOUND, workspaceStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { UpdateWorkspaceCommand } from './update-workspace.command';
import { UpdateWorkspaceHandler } from './update-workspace.handler';

describe('UpdateWorkspaceHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const update = (input: UpdateWorkspaceCommand['input'], workspaceId = 'ws_1') =>
    new UpdateWorkspaceHandler(spec.repository, spec.clock).execute(
      new UpdateWorkspaceCommand(spec.context(null, { actor: OPERATOR }), workspaceId, input),
    );

  beforeEach(async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1', 5));
  });

  it('records what changes: a new plan, a limit lifted', async () => {
    const { events, recorded } = await spec.when(() => update({ plan: 'enterprise', projectLimit: null }));

    expect(events).toEqual([
      {
        streamId: 'workspace-ws_1',
        type: 'workspace.updated',
        data: { id: 'ws_1', changes: { plan: 'enterprise', project_limit: null }, updated: NOW },
      },
    ]);
    expect(recorded[0].metadata.workspaceId).toBe('ws_1');
  });

  it('a field left out is kept; a value the workspace already has records nothing', async () => {
    const limitOnly = await spec.when(() => update({ projectLimit: 10 }));
    expect(limitOnly.events.map((e) => e.data)).toEqual([{ id: 'ws_1', changes: { project_limit: 10 }, updated: NOW }]);

    const same = await spec.when(() => update({ plan: 'pro', projectLimit: 10 }));
    expect(same.events).toEqual([]);
  });

  it('a workspace that does not exist is not found', async () => {
    await spec.whenRefused(() => update({ plan: 'free' }, 'ws_404'), 'not_found', WORKSPACE_NOT_FOUND);
  });
});
