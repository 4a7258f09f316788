import { EventSchema, Upcaster } from '../shared/event-schema';
import { JobEvent, JobPilotsUnassigned, JobRef } from './job.events';

/** `job.pilots_unassigned` as version 1 recorded it: only the product of pilots and occurrences. */
export interface JobPilotsUnassignedV1 extends JobRef {
  pilot_ids: string[];
  /** pilot_ids.length x the job's occurrences at the time. */
  assignments_removed: number;
  unassigned: number;
}

/**
 * v1 -> v2: the occurrences per pilot, which v1 only recorded multiplied by the number of pilots.
 * v1 always wrote exactly that product, so the division is exact; an empty list (never written)
 * reads as 0 occurrences.
 */
export const upcastJobPilotsUnassignedV1: Upcaster = (v1: JobPilotsUnassignedV1): JobPilotsUnassigned['data'] => ({
  id: v1.id,
  workspace_id: v1.workspace_id,
  project_id: v1.project_id,
  pilot_ids: v1.pilot_ids,
  occurrences_per_pilot: v1.pilot_ids.length > 0 ? Math.round(v1.assignments_removed / v1.pilot_ids.length) : 0,
  unassigned: v1.unassigned,
});

/** Schema versions of the jobs events; every type is listed (the compiler checks), each with its upcasters. */
export const JOB_EVENT_SCHEMAS = {
  'job.created': { version: 1 },
  'job.updated': { version: 1 },
  'job.deleted': { version: 1 },
  'job.pilots_assigned': { version: 1 },
  'job.pilots_unassigned': { version: 2, upcasters: { 1: upcastJobPilotsUnassignedV1 } },
} as const satisfies Record<JobEvent['type'], EventSchema>;
