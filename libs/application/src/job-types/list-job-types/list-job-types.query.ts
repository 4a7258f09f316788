import { Query } from '@nestjs/cqrs';
import { JobTypeView } from '@app/domain';

export interface JobTypeList {
  job_types: JobTypeView[];
  count: number;
  cursor: string | null;
}

export class ListJobTypesQuery extends Query<JobTypeList> {
  constructor(
    readonly workspaceId: string,
    readonly cursor?: string,
  ) {
    super();
  }
}
