import { Query } from '@nestjs/cqrs';
import { JobView, Status } from '@app/domain';

export interface JobList {
  jobs: JobView[];
  count: number;
  cursor: string | null;
  project_id: string;
}

export class ListJobsQuery extends Query<JobList> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly cursor?: string,
    /** Only jobs of these statuses (the dashboard's filter); all when left out. */
    readonly statuses?: Status[],
  ) {
    super();
  }
}
