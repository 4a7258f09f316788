import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { notFound, PROJECT_NOT_FOUND, ProjectView, Status } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { PROJECTS } from '../project.projector';

export class GetProjectQuery extends Query<ProjectView> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
  ) {
    super();
  }
}

export interface ProjectList {
  projects: ProjectView[];
  count: number;
  cursor: string | null;
}

export class ListProjectsQuery extends Query<ProjectList> {
  constructor(
    readonly workspaceId: string,
    readonly filter: { statuses?: Status[]; archived: boolean; cursor?: string },
  ) {
    super();
  }
}

@QueryHandler(GetProjectQuery)
export class GetProjectHandler implements IQueryHandler<GetProjectQuery, ProjectView> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, projectId }: GetProjectQuery): Promise<ProjectView> {
    const found = await this.read.get<ProjectView>(PROJECTS, projectId);
    if (!found || found.workspaceId !== workspaceId) throw notFound(PROJECT_NOT_FOUND);
    return found.doc;
  }
}

@QueryHandler(ListProjectsQuery)
export class ListProjectsHandler implements IQueryHandler<ListProjectsQuery, ProjectList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, filter }: ListProjectsQuery): Promise<ProjectList> {
    const afterSeq = decodeCursor(filter.cursor);
    const found = await this.read.find<ProjectView>(PROJECTS, {
      workspaceId,
      where: {
        archived: filter.archived,
        ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
      },
      afterSeq,
      limit: PAGE_SIZE + 1,
    });
    const page = toPage(found);
    return { projects: page.items, count: page.items.length, cursor: page.cursor };
  }
}
