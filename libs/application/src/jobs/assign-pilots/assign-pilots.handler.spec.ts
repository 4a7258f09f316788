import {
  ASSIGNMENT_MESSAGES,
  JOB_NOT_FOUND,
  jobStream,
  PROJECT_NOT_FOUND,
  projectStream,
  workspaceStream,
} from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { AssignPilotsCommand } from './assign-pilots.command';
import { AssignPilotsHandler } from './assign-pilots.handler';

/** A daily job from 1 to 3 December: three occurrences per pilot. */
const threeDayJob = () => {
  const event = given.jobCreated('job_1', 'ws_1', 'prj_1');
  return {
    ...event,
    data: {
      ...event.data,
      job_pattern: 'recurring' as const,
      recurring_frequency: 'daily' as const,
      end_date: '2026-12-03',
    },
  };
};

describe('AssignPilotsHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const assign = (pilotIds: string[], options: { workspaceId?: string; jobId?: string } = {}) =>
    new AssignPilotsHandler(spec.repository, spec.read, spec.clock).execute(
      new AssignPilotsCommand(spec.context(options.workspaceId ?? 'ws_1'), 'prj_1', options.jobId ?? 'job_1', pilotIds),
    );

  beforeEach(async () => {
    await spec.given(
      workspaceStream('ws_1'),
      given.workspaceCreated('ws_1'),
      given.memberAdded('ws_1', 'usr_1'),
      given.memberAdded('ws_1', 'usr_2'),
      given.memberAdded('ws_1', 'usr_client', 'client'),
    );
    await spec.given(workspaceStream('ws_2'), given.workspaceCreated('ws_2'), given.memberAdded('ws_2', 'usr_9'));
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
    await spec.given(jobStream('job_1'), threeDayJob());
  });

  it('records the pilots (each once) with the occurrences each is assigned to', async () => {
    const { result, events } = await spec.when(() => assign(['usr_2', 'usr_1', 'usr_2']));

    expect(events).toEqual([
      {
        streamId: 'job-job_1',
        type: 'job.pilots_assigned',
        data: {
          id: 'job_1',
          workspace_id: 'ws_1',
          project_id: 'prj_1',
          pilot_ids: ['usr_2', 'usr_1'],
          occurrences_per_pilot: 3,
          assigned: NOW,
        },
      },
    ]);
    expect(result).toEqual({
      message: 'Pilots assigned successfully',
      results: { successful: 6, skipped: 0, failed: 0 },
      pilots_assigned: ['usr_2', 'usr_1'],
      pilots_skipped: [],
      occurrences_per_pilot: 3,
    });
  });

  it('pilots already assigned are skipped; when all are, nothing is recorded', async () => {
    await assign(['usr_1']);

    const both = await spec.when(() => assign(['usr_1', 'usr_2']));
    expect(both.events.map((e) => (e.data as { pilot_ids: string[] }).pilot_ids)).toEqual([['usr_2']]);
    expect(both.result.results).toEqual({ successful: 3, skipped: 3, failed: 0 });
    expect(both.result.pilots_skipped).toEqual(['usr_1']);

    const again = await spec.when(() => assign(['usr_1']));
    expect(again.events).toEqual([]);
    expect(again.result).toEqual({
      message: 'Pilots assigned successfully',
      results: { successful: 0, skipped: 3, failed: 0 },
      pilots_assigned: [],
      pilots_skipped: ['usr_1'],
      occurrences_per_pilot: 3,
    });
  });

  it("a member who is not a pilot, another workspace's pilot or an unknown id fails the whole request", async () => {
    for (const stranger of ['usr_client', 'usr_9', 'usr_404']) {
      await spec.whenRefused(() => assign(['usr_1', stranger]), 'not_found', ASSIGNMENT_MESSAGES.pilotsNotFound);
    }
  });

  it('an empty list is refused', async () => {
    await spec.whenRefused(() => assign([]), 'validation', ASSIGNMENT_MESSAGES.assignPilotsRequired);
  });

  it('a missing job is "Job not found" before any pilot is looked at; a foreign project before the job', async () => {
    await spec.whenRefused(() => assign(['usr_404'], { jobId: 'job_404' }), 'not_found', JOB_NOT_FOUND);
    await spec.whenRefused(() => assign(['usr_9'], { workspaceId: 'ws_2' }), 'not_found', PROJECT_NOT_FOUND);
  });
});
