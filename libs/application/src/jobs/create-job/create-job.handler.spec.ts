import { CreateJobInput, JOB_MESSAGES, jobTypeStream, PROJECT_NOT_FOUND, projectStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { CreateJobCommand } from './create-job.command';
import { CreateJobHandler } from './create-job.handler';

const input: CreateJobInput = {
  name: 'Facade scan',
  type: 'drone_inspection',
  job_pattern: 'one_time',
  start_date: '2026-12-01',
  latitude: 48.1,
  longitude: 11.5,
};

describe('CreateJobHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const create = (
    body: CreateJobInput = input,
    options: { workspaceId?: string; projectId?: string; idempotencyKey?: string } = {},
  ) =>
    new CreateJobHandler(spec.repository, spec.read, spec.clock, spec.ids).execute(
      new CreateJobCommand(
        spec.context(options.workspaceId ?? 'ws_1', { idempotencyKey: options.idempotencyKey }),
        options.projectId ?? 'prj_1',
        body,
      ),
    );

  beforeEach(async () => {
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
  });

  it("records the job with its defaults and its place in the project's job list, in one write", async () => {
    const { result, events, recorded } = await spec.when(() => create());

    expect(result).toEqual({ id: 'job_1' });
    expect(events).toEqual([
      {
        streamId: 'project-jobs-prj_1',
        type: 'project.job_added',
        data: { workspace_id: 'ws_1', project_id: 'prj_1', job_id: 'job_1' },
      },
      {
        streamId: 'job-job_1',
        type: 'job.created',
        // The job of the body, created now; what the body leaves out takes its default.
        data: { ...given.jobCreated('job_1', 'ws_1', 'prj_1').data, latitude: 48.1, longitude: 11.5, created: NOW },
      },
    ]);
    expect(recorded.map((e) => e.metadata.workspaceId)).toEqual(['ws_1', 'ws_1']);
  });

  it('a job on a deleted project is refused', async () => {
    await spec.given(projectStream('prj_1'), {
      type: 'project.deleted',
      data: { id: 'prj_1', workspace_id: 'ws_1', deleted: NOW - 1 },
    });

    await spec.whenRefused(() => create(), 'not_found', PROJECT_NOT_FOUND);
  });

  it("a job on another workspace's project, or on none, is refused", async () => {
    await spec.whenRefused(() => create(input, { workspaceId: 'ws_2' }), 'not_found', PROJECT_NOT_FOUND);
    await spec.whenRefused(() => create(input, { projectId: 'prj_404' }), 'not_found', PROJECT_NOT_FOUND);
  });

  it("a custom type of the workspace is accepted; another workspace's, or a deleted one, is unknown", async () => {
    await spec.given(jobTypeStream('jbt_mine'), {
      type: 'job_type.created',
      data: { id: 'jbt_mine', workspace_id: 'ws_1', name: 'Roof', icon: 'roof', created: 1 },
    });
    await spec.given(jobTypeStream('jbt_theirs'), {
      type: 'job_type.created',
      data: { id: 'jbt_theirs', workspace_id: 'ws_2', name: 'Theirs', icon: 'x', created: 1 },
    });
    await spec.given(
      jobTypeStream('jbt_gone'),
      { type: 'job_type.created', data: { id: 'jbt_gone', workspace_id: 'ws_1', name: 'Gone', icon: 'x', created: 1 } },
      { type: 'job_type.deleted', data: { id: 'jbt_gone', workspace_id: 'ws_1', deleted: 2 } },
    );

    const { events } = await spec.when(() => create({ ...input, type: 'jbt_mine' }));
    expect(events.map((e) => e.type)).toEqual(['project.job_added', 'job.created']);
    await spec.whenRefused(() => create({ ...input, type: 'jbt_theirs' }), 'validation', JOB_MESSAGES.typeUnknown);
    await spec.whenRefused(() => create({ ...input, type: 'jbt_gone' }), 'validation', JOB_MESSAGES.typeUnknown);
  });

  it('a start date more than six months back is refused', async () => {
    await spec.whenRefused(
      () => create({ ...input, start_date: '2026-04-30' }),
      'validation',
      JOB_MESSAGES.startDateTooOld,
    );
  });

  it('a retry with the same Idempotency-Key names the same job and records nothing more', async () => {
    const first = await create(input, { idempotencyKey: 'idem-1' });

    const { result, events } = await spec.when(() => create(input, { idempotencyKey: 'idem-1' }));

    expect(result).toEqual(first);
    expect(events).toEqual([]);
  });
});
