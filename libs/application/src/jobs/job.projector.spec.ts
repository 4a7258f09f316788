import { NOT_RECURRING } from '@app/domain/jobs/job.spec-helper';
import { JobCreated, jobStream } from '@app/domain';
import { projectorSpec } from '../projections/projector.spec-helper';
import { JOB_ASSIGNMENTS, jobProjector, JOBS } from './job.projector';

/** The fields of the job `created(...)` records, each shown as it is. */
const fields = {
  name: 'Facade scan',
  description: null,
  type: 'inspection',
  status: 'other',
  priority: 'high',
  job_pattern: 'one_time',
  start_date: '2026-12-01',
  end_date: null,
  latitude: 48.1,
  longitude: 11.5,
  inspection_notes: null,
  capture_types: ['drone_inspection'],
  external_id: null,
  ...NOT_RECURRING,
} as const;

const created = (id: string, workspaceId: string, projectId: string): JobCreated => ({
  type: 'job.created',
  data: {
    id,
    workspace_id: workspaceId,
    project_id: projectId,
    ...fields,
    capture_types: [...fields.capture_types],
    other_status_reason: 'weather',
    created: 100,
  },
});

/** The document of `created(...)` as GET .../jobs/{id} serves it: no workspace, no other_status_reason. */
const shown = (id: string, projectId: string) => ({ id, ...fields, project_id: projectId, created: 100, updated: 100 });

const ref = (id: string, workspaceId = 'ws_1', projectId = 'prj_1') => ({
  id,
  workspace_id: workspaceId,
  project_id: projectId,
});

/** A job.pilots_assigned of a job of ws_1/prj_1 (at 200). */
const assigned = (jobId: string, pilotIds: string[], occurrencesPerPilot: number) => ({
  type: 'job.pilots_assigned' as const,
  data: { ...ref(jobId), pilot_ids: pilotIds, occurrences_per_pilot: occurrencesPerPilot, assigned: 200 },
});

/** The assignment document of a pilot of a job of ws_1/prj_1, assigned at 200. */
const assignmentDoc = (jobId: string, pilotId: string, seq: number, index: number) => ({
  id: `${jobId}:${pilotId}`,
  workspaceId: 'ws_1',
  seq,
  version: 0,
  doc: { job_id: jobId, project_id: 'prj_1', pilot_id: pilotId, assigned: 200, index },
});

describe('job projector: given events -> job and assignment documents', () => {
  const projection = projectorSpec(jobProjector);
  const { record } = projection;

  it('a created job is its view, without the write-only other_status_reason', async () => {
    await projection.given(record(jobStream('job_1'), created('job_1', 'ws_1', 'prj_1')));

    await projection.expectDocuments({
      [JOBS]: [{ id: 'job_1', workspaceId: 'ws_1', seq: 1, version: 0, doc: shown('job_1', 'prj_1') }],
    });
  });

  it('an update sets what changed, never other_status_reason, and moves the version', async () => {
    const stream = jobStream('job_1');
    await projection.given(
      record(stream, created('job_1', 'ws_1', 'prj_1')),
      record(stream, {
        type: 'job.updated',
        data: {
          ...ref('job_1'),
          changes: { name: 'Roof scan', status: 'planned', other_status_reason: null, latitude: null },
          updated: 200,
        },
      }),
    );

    await projection.expectDocuments({
      [JOBS]: [
        {
          id: 'job_1',
          workspaceId: 'ws_1',
          seq: 1,
          version: 1,
          doc: { ...shown('job_1', 'prj_1'), name: 'Roof scan', status: 'planned', latitude: null, updated: 200 },
        },
      ],
    });
  });

  it('assigned pilots are one document each, in request order; the job mirrors the new revision', async () => {
    const stream = jobStream('job_1');
    await projection.given(
      record(stream, created('job_1', 'ws_1', 'prj_1')),
      record(stream, assigned('job_1', ['usr_b', 'usr_a'], 3)),
    );

    await projection.expectDocuments({
      [JOBS]: [{ id: 'job_1', workspaceId: 'ws_1', seq: 1, version: 1, doc: shown('job_1', 'prj_1') }],
      [JOB_ASSIGNMENTS]: [assignmentDoc('job_1', 'usr_a', 2, 1), assignmentDoc('job_1', 'usr_b', 2, 0)],
    });
  });

  it('unassigned pilots lose their document; the others keep theirs', async () => {
    const stream = jobStream('job_1');
    await projection.given(
      record(stream, created('job_1', 'ws_1', 'prj_1')),
      record(stream, assigned('job_1', ['usr_a', 'usr_b'], 1)),
      record(stream, {
        type: 'job.pilots_unassigned',
        data: { ...ref('job_1'), pilot_ids: ['usr_a'], occurrences_per_pilot: 1, unassigned: 300 },
      }),
    );

    await projection.expectDocuments({
      [JOBS]: [{ id: 'job_1', workspaceId: 'ws_1', seq: 1, version: 2, doc: shown('job_1', 'prj_1') }],
      [JOB_ASSIGNMENTS]: [assignmentDoc('job_1', 'usr_b', 2, 1)],
    });
  });

  it('a deleted job takes its assignments with it, and only its own', async () => {
    await projection.given(
      record(jobStream('job_1'), created('job_1', 'ws_1', 'prj_1')),
      record(jobStream('job_2'), created('job_2', 'ws_1', 'prj_1')),
      record(jobStream('job_1'), assigned('job_1', ['usr_a'], 1)),
      record(jobStream('job_2'), assigned('job_2', ['usr_a'], 1)),
      record(jobStream('job_1'), { type: 'job.deleted', data: { ...ref('job_1'), deleted: 300 } }),
    );

    await projection.expectDocuments({
      [JOBS]: [{ id: 'job_2', workspaceId: 'ws_1', seq: 2, version: 1, doc: shown('job_2', 'prj_1') }],
      [JOB_ASSIGNMENTS]: [assignmentDoc('job_2', 'usr_a', 4, 0)],
    });
  });

  it('a redelivered assignment does not assign twice; a redelivered history leaves the same documents', async () => {
    const stream = jobStream('job_1');
    const events = [
      record(stream, created('job_1', 'ws_1', 'prj_1')),
      record(stream, assigned('job_1', ['usr_a', 'usr_b'], 2)),
      record(stream, {
        type: 'job.updated',
        data: { ...ref('job_1'), changes: { name: 'Roof scan' }, updated: 300 },
      }),
    ];
    await projection.expectRedeliveriesChangeNothing(events, [events[1]], events);
    expect(await projection.store.count(JOB_ASSIGNMENTS, { workspaceId: 'ws_1', where: { job_id: 'job_1' } })).toBe(2);
  });

  it("another workspace's jobs and assignments stay in that workspace, and its deletions touch only its own", async () => {
    await projection.given(
      record(jobStream('job_1'), created('job_1', 'ws_1', 'prj_1')),
      record(jobStream('job_1'), assigned('job_1', ['usr_a'], 1)),
      record(jobStream('job_9'), created('job_9', 'ws_2', 'prj_9')),
      record(jobStream('job_9'), {
        type: 'job.pilots_assigned',
        data: { ...ref('job_9', 'ws_2', 'prj_9'), pilot_ids: ['usr_z'], occurrences_per_pilot: 1, assigned: 200 },
      }),
      // ws_2's deletion removes ws_2's job and assignments, nothing of ws_1.
      record(jobStream('job_9'), {
        type: 'job.deleted',
        data: { ...ref('job_9', 'ws_2', 'prj_9'), deleted: 300 },
      }),
    );

    expect(await projection.ids(JOBS, 'ws_1')).toEqual(['job_1']);
    expect(await projection.ids(JOBS, 'ws_2')).toEqual([]);
    expect(await projection.ids(JOB_ASSIGNMENTS, 'ws_1')).toEqual(['job_1:usr_a']);
    expect(await projection.ids(JOB_ASSIGNMENTS, 'ws_2')).toEqual([]);
  });
});
