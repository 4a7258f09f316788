import { DEFAULT_JOB_TYPE_ICON, OPERATOR, WORKSPACE_NOT_FOUND } from '@app/domain';
import { handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { CreateJobTypeCommand } from './create-job-type.command';
import { CreateJobTypeHandler } from './create-job-type.handler';

describe('CreateJobTypeHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const create = (input: CreateJobTypeCommand['input'], workspaceId: string | null = 'ws_1') =>
    new CreateJobTypeHandler(spec.repository, spec.clock, spec.ids).execute(
      new CreateJobTypeCommand(spec.context(workspaceId), input),
    );

  it('records a custom type of the workspace, with the default icon when none is given', async () => {
    const { result, events } = await spec.when(() => create({ name: 'Roof survey' }));
    const withIcon = await spec.when(() => create({ name: 'Bridge', icon: 'bridge' }));

    expect(result).toEqual({ id: 'jbt_1' });
    expect(events).toEqual([
      {
        streamId: 'job-type-jbt_1',
        type: 'job_type.created',
        data: { id: 'jbt_1', workspace_id: 'ws_1', name: 'Roof survey', icon: DEFAULT_JOB_TYPE_ICON, created: NOW },
      },
    ]);
    expect(withIcon.events.map((e) => e.data)).toEqual([
      { id: 'jbt_2', workspace_id: 'ws_1', name: 'Bridge', icon: 'bridge', created: NOW },
    ]);
  });

  it('a request outside any workspace (the operator) has nowhere to create it', async () => {
    await spec.whenRefused(
      () =>
        new CreateJobTypeHandler(spec.repository, spec.clock, spec.ids).execute(
          new CreateJobTypeCommand(spec.context(null, { actor: OPERATOR }), { name: 'x' }),
        ),
      'not_found',
      WORKSPACE_NOT_FOUND,
    );
  });
});
