import { JobEvent, jobView } from '@app/domain';
import { RecordedEvent } from '../ports/event-store.port';
import { WriteOp } from '../ports/read-model.port';
import { Projector, putCreated } from '../projections/projector';

export const JOBS = 'jobs';
/** One document per (job, pilot) assignment; occurrences themselves are derived, never stored. */
export const JOB_ASSIGNMENTS = 'job_assignments';

export interface JobAssignmentDoc {
  job_id: string;
  project_id: string;
  pilot_id: string;
  assigned: number;
  /** Place in its request's list: pilots assigned together share a `seq`, this keeps their order. */
  index: number;
}

export const assignmentId = (jobId: string, pilotId: string) => `${jobId}:${pilotId}`;

/** Fields of job events that are inputs only and never shown (docs/api.md, Jobs / 2.2). */
const WRITE_ONLY = new Set(['other_status_reason']);

/** The events this projection writes for; a `case` for any other type does not compile. */
const HANDLES = ['job.created', 'job.updated', 'job.deleted', 'job.pilots_assigned', 'job.pilots_unassigned'] as const;
type Handled = Extract<JobEvent, { type: (typeof HANDLES)[number] }>;

export const jobProjector: Projector = {
  name: 'jobs',
  collections: [
    { name: JOBS, workspaceIndexes: ['project_id'] },
    { name: JOB_ASSIGNMENTS, workspaceIndexes: ['job_id'] },
  ],
  handles: HANDLES,
  project(recorded: RecordedEvent): WriteOp[] {
    const event = recorded as unknown as Handled;
    const version = recorded.revision;
    switch (event.type) {
      case 'job.created': {
        const { id, workspace_id, project_id, created, ...values } = event.data;
        const doc = jobView(id, project_id, { ...values, created, updated: created });
        return [putCreated(recorded, JOBS, id, workspace_id, doc)];
      }
      case 'job.updated': {
        const set: Record<string, unknown> = { updated: event.data.updated };
        for (const [field, value] of Object.entries(event.data.changes)) if (!WRITE_ONLY.has(field)) set[field] = value;
        return [{ op: 'merge', collection: JOBS, id: event.data.id, version, set }];
      }
      case 'job.deleted':
        return [
          { op: 'delete', collection: JOBS, id: event.data.id },
          {
            op: 'deleteWhere',
            collection: JOB_ASSIGNMENTS,
            workspaceId: event.data.workspace_id,
            where: { job_id: event.data.id },
          },
        ];
      case 'job.pilots_assigned': {
        const d = event.data;
        return [
          ...d.pilot_ids.map((pilotId, index): WriteOp => {
            const doc: JobAssignmentDoc = {
              job_id: d.id,
              project_id: d.project_id,
              pilot_id: pilotId,
              assigned: d.assigned,
              index,
            };
            const id = assignmentId(d.id, pilotId);
            return {
              op: 'put',
              collection: JOB_ASSIGNMENTS,
              id,
              workspaceId: d.workspace_id,
              seq: recorded.position,
              doc: { ...doc },
            };
          }),
          // The job document mirrors the stream revision (its ETag) even though its fields did not change.
          { op: 'merge', collection: JOBS, id: d.id, version, set: {} },
        ];
      }
      case 'job.pilots_unassigned': {
        const d = event.data;
        return [
          ...d.pilot_ids.map((pilotId): WriteOp => ({
            op: 'delete',
            collection: JOB_ASSIGNMENTS,
            id: assignmentId(d.id, pilotId),
          })),
          { op: 'merge', collection: JOBS, id: d.id, version, set: {} },
        ];
      }
      default:
        return [];
    }
  },
};
