import { DomainEvent } from '../shared/decider';

/** Custom job types only: predefined ones are part of the code (job-type.catalogue.ts), not of the history. */
export type JobTypeCreated = DomainEvent<
  'job_type.created',
  { id: string; workspace_id: string; name: string; icon: string; created: number }
>;
export type JobTypeDeleted = DomainEvent<'job_type.deleted', { id: string; workspace_id: string; deleted: number }>;

export type JobTypeEvent = JobTypeCreated | JobTypeDeleted;
