import { Query } from '@nestjs/cqrs';
import { ProjectView } from '@app/domain';

/** A project as it was at `asOf` (ms); 404 when it did not exist then (not yet created, or deleted). */
export class GetProjectAsOfQuery extends Query<ProjectView> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
    readonly asOf: number,
  ) {
    super();
  }
}
