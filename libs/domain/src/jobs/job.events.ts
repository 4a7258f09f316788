import { DomainEvent } from '../shared/decider';
import { Status } from '../shared/status';
import { CaptureType, Priority } from './job.values';
import { JobSchedule } from './occurrence-schedule';

/**
 * The writable fields of a job (docs/api.md, Jobs) plus the write-only `other_status_reason`:
 * its schedule (pattern, dates and recurring fields) and the rest.
 */
export interface JobFieldValues extends JobSchedule {
  name: string;
  description: string | null;
  type: string;
  status: Status;
  priority: Priority;
  latitude: number | null;
  longitude: number | null;
  inspection_notes: string | null;
  capture_types: CaptureType[] | null;
  external_id: string | null;
  /** Input only (docs/api.md, Projects / 2.3): kept in the history, never shown. */
  other_status_reason: string | null;
}

/** What a PATCH may change: any writable field; null clears the nullable ones. */
export type JobChanges = Partial<JobFieldValues>;

export interface JobRef {
  id: string;
  workspace_id: string;
  project_id: string;
}

export type JobCreated = DomainEvent<'job.created', JobRef & JobFieldValues & { created: number }>;
/** Carries only the fields that changed. */
export type JobUpdated = DomainEvent<'job.updated', JobRef & { changes: JobChanges; updated: number }>;
/** Also recorded for every job of a deleted project, so consumers see each job that went. */
export type JobDeleted = DomainEvent<'job.deleted', JobRef & { deleted: number }>;
/**
 * Pilots newly assigned to the job. Assignments belong to the job and apply to all of its
 * occurrences, so they survive any regeneration of the occurrences. `occurrences_per_pilot` is
 * the number of occurrences at the time (the assignment records this created per pilot).
 */
export type JobPilotsAssigned = DomainEvent<
  'job.pilots_assigned',
  JobRef & { pilot_ids: string[]; occurrences_per_pilot: number; assigned: number }
>;
/**
 * Pilots whose assignment was removed, with the number of occurrences at the time, like its twin
 * `job.pilots_assigned` (version 2). Version 1 recorded only the product `assignments_removed`
 * (pilots x occurrences), a derived number; the upcaster in job.event-schemas.ts reads it back.
 */
export type JobPilotsUnassigned = DomainEvent<
  'job.pilots_unassigned',
  JobRef & { pilot_ids: string[]; occurrences_per_pilot: number; unassigned: number }
>;

export type JobEvent = JobCreated | JobUpdated | JobDeleted | JobPilotsAssigned | JobPilotsUnassigned;
