import { Query } from '@nestjs/cqrs';
import { JobView } from '@app/domain';

export class GetJobQuery extends Query<JobView> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly jobId: string,
  ) {
    super();
  }
}
