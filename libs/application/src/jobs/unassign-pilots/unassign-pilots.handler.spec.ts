import { ASSIGNMENT_MESSAGES, JOB_NOT_FOUND, jobStream, PROJECT_NOT_FOUND, projectStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { UnassignPilotsCommand } from './unassign-pilots.command';
import { UnassignPilotsHandler } from './unassign-pilots.handler';

describe('UnassignPilotsHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const unassign = (pilotIds: string[], options: { workspaceId?: string; jobId?: string } = {}) =>
    new UnassignPilotsHandler(spec.repository, spec.clock).execute(
      new UnassignPilotsCommand(
        spec.context(options.workspaceId ?? 'ws_1'),
        'prj_1',
        options.jobId ?? 'job_1',
        pilotIds,
      ),
    );

  beforeEach(async () => {
    const job = given.jobCreated('job_1', 'ws_1', 'prj_1');
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
    await spec.given(
      jobStream('job_1'),
      // Two occurrences: 1 and 2 December.
      { ...job, data: { ...job.data, job_pattern: 'recurring', recurring_frequency: 'daily', end_date: '2026-12-02' } },
      {
        type: 'job.pilots_assigned',
        data: {
          id: 'job_1',
          workspace_id: 'ws_1',
          project_id: 'prj_1',
          pilot_ids: ['usr_1', 'usr_2', 'usr_3'],
          occurrences_per_pilot: 2,
          assigned: 1,
        },
      },
    );
  });

  it('records the pilots that had an assignment, leaving out those that had none', async () => {
    const { result, events } = await spec.when(() => unassign(['usr_3', 'usr_404', 'usr_1', 'usr_3']));

    expect(events).toEqual([
      {
        streamId: 'job-job_1',
        type: 'job.pilots_unassigned',
        data: {
          id: 'job_1',
          workspace_id: 'ws_1',
          project_id: 'prj_1',
          pilot_ids: ['usr_3', 'usr_1'],
          occurrences_per_pilot: 2,
          unassigned: NOW,
        },
      },
    ]);
    expect(result).toEqual({
      message: 'Pilots unassigned successfully',
      pilots_removed: ['usr_3', 'usr_1'],
      assignments_removed: 4,
    });
  });

  it('when none of them has an assignment (or it was removed already), nothing is recorded', async () => {
    await unassign(['usr_1']);

    await spec.whenRefused(() => unassign(['usr_1', 'usr_404']), 'not_found', ASSIGNMENT_MESSAGES.noAssignments);
  });

  it('an empty list is refused', async () => {
    await spec.whenRefused(() => unassign([]), 'validation', ASSIGNMENT_MESSAGES.unassignPilotsRequired);
  });

  it("a missing job, or another workspace's project, is not found", async () => {
    await spec.whenRefused(() => unassign(['usr_1'], { jobId: 'job_404' }), 'not_found', JOB_NOT_FOUND);
    await spec.whenRefused(() => unassign(['usr_1'], { workspaceId: 'ws_2' }), 'not_found', PROJECT_NOT_FOUND);
  });
});
