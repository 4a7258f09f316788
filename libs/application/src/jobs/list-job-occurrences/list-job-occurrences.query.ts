import { Query } from '@nestjs/cqrs';

/** One occurrence of a job as GET .../occurrences shows it (the API reference leaves the record unshown). */
export interface OccurrenceItem {
  date: string;
  flights: number;
  /** Every pilot assigned to the job: assignments apply to all of its occurrences. */
  assigned_pilot_ids: string[];
}

export interface OccurrenceList {
  occurrences: OccurrenceItem[];
  count: number;
  cursor: string | null;
  job_id: string;
  project_id: string;
}

export class ListJobOccurrencesQuery extends Query<OccurrenceList> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly jobId: string,
    readonly cursor?: string,
  ) {
    super();
  }
}
