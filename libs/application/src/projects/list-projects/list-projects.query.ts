import { Query } from '@nestjs/cqrs';
import { ProjectView, Status } from '@app/domain';

export interface ProjectList {
  projects: ProjectView[];
  count: number;
  cursor: string | null;
}

export interface ProjectListFilter {
  statuses?: Status[];
  archived: boolean;
  cursor?: string;
  /** Only projects whose name contains this text, ignoring case (the dashboard's search). */
  nameContains?: string;
}

/** A page of the caller's workspace's projects, in creation order. */
export class ListProjectsQuery extends Query<ProjectList> {
  constructor(
    readonly workspaceId: string,
    readonly filter: ProjectListFilter,
  ) {
    super();
  }
}
