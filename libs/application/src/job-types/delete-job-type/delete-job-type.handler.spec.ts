import { JOB_TYPE_NOT_FOUND, jobTypeStream, PREDEFINED_JOB_TYPE_NOT_DELETABLE } from '@app/domain';
import { handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { DeleteJobTypeCommand } from './delete-job-type.command';
import { DeleteJobTypeHandler } from './delete-job-type.handler';

describe('DeleteJobTypeHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const remove = (jobTypeId: string, workspaceId = 'ws_1') =>
    new DeleteJobTypeHandler(spec.repository, spec.clock).execute(
      new DeleteJobTypeCommand(spec.context(workspaceId), jobTypeId),
    );

  beforeEach(async () => {
    await spec.given(jobTypeStream('jbt_1'), {
      type: 'job_type.created',
      data: { id: 'jbt_1', workspace_id: 'ws_1', name: 'Roof survey', icon: 'roof', created: 1 },
    });
  });

  it('records the deletion of a custom type', async () => {
    const { events } = await spec.when(() => remove('jbt_1'));

    expect(events).toEqual([
      {
        streamId: 'job-type-jbt_1',
        type: 'job_type.deleted',
        data: { id: 'jbt_1', workspace_id: 'ws_1', deleted: NOW },
      },
    ]);
  });

  it('a deleted or missing type is not found', async () => {
    await remove('jbt_1');

    await spec.whenRefused(() => remove('jbt_1'), 'not_found', JOB_TYPE_NOT_FOUND);
    await spec.whenRefused(() => remove('jbt_404'), 'not_found', JOB_TYPE_NOT_FOUND);
  });

  it("another workspace's type is not found", async () => {
    await spec.whenRefused(() => remove('jbt_1', 'ws_2'), 'not_found', JOB_TYPE_NOT_FOUND);
  });

  it('a predefined type cannot be deleted', async () => {
    await spec.whenRefused(() => remove('drone_inspection'), 'validation', PREDEFINED_JOB_TYPE_NOT_DELETABLE);
  });
});
