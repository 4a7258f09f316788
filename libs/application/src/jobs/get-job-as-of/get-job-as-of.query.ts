import { Query } from '@nestjs/cqrs';
import { jobView } from '@app/domain';

type JobView = ReturnType<typeof jobView>;

/** A job as it was at `asOf` (ms), rebuilt from its events; 404 when it did not exist then. */
export class GetJobAsOfQuery extends Query<JobView> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly jobId: string,
    readonly asOf: number,
  ) {
    super();
  }
}
