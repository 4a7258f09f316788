import { OPERATOR } from '@app/domain';
import { handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { CreateWorkspaceCommand } from './create-workspace.command';
import { CreateWorkspaceHandler } from './create-workspace.handler';

describe('CreateWorkspaceHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const create = (input: CreateWorkspaceCommand['input']) =>
    new CreateWorkspaceHandler(spec.repository, spec.clock, spec.ids).execute(
      new CreateWorkspaceCommand(spec.context(null, { actor: OPERATOR }), input),
    );

  it('records a new workspace on its own stream, its events filed under it', async () => {
    const { result, events, recorded } = await spec.when(() =>
      create({ name: 'Acme Aerial', plan: 'enterprise', projectLimit: 100 }),
    );

    expect(result).toEqual({ id: 'ws_1' });
    expect(events).toEqual([
      {
        streamId: 'workspace-ws_1',
        type: 'workspace.created',
        data: { id: 'ws_1', name: 'Acme Aerial', plan: 'enterprise', project_limit: 100, created: NOW },
      },
    ]);
    expect(recorded[0].metadata).toMatchObject({ workspaceId: 'ws_1', actor: OPERATOR });
  });

  it('each create is a workspace of its own; no limit is null', async () => {
    await create({ name: 'A', plan: 'free', projectLimit: 3 });
    const { result, events } = await spec.when(() => create({ name: 'B', plan: 'pro', projectLimit: null }));

    expect(result).toEqual({ id: 'ws_2' });
    expect(events.map((e) => [e.streamId, e.data])).toEqual([
      ['workspace-ws_2', { id: 'ws_2', name: 'B', plan: 'pro', project_limit: null, created: NOW }],
    ]);
  });
});
