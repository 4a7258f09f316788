import { Query } from '@nestjs/cqrs';
import { ProjectView } from '@app/domain';

/** A project with the revision of its stream that it shows: the GET's body and its ETag. */
export interface ProjectAtRevision {
  project: ProjectView;
  revision: number;
}

/** A project of the caller's workspace, as the read model holds it now. */
export class GetProjectQuery extends Query<ProjectAtRevision> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
  ) {
    super();
  }
}
