import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { notFound, PROJECT_NOT_FOUND, ProjectView, Status } from '@app/domain';
import { FindQuery, READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { PROJECTS } from '../project.projector';
import { jsonPage, JsonText } from './json-page';

export { jsonPage, JsonText } from './json-page';

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

export interface ProjectListFilter {
  statuses?: Status[];
  archived: boolean;
  cursor?: string;
}

export class ListProjectsQuery extends Query<ProjectList> {
  constructor(
    readonly workspaceId: string,
    readonly filter: ProjectListFilter,
  ) {
    super();
  }
}

/**
 * The same page as ListProjectsQuery, as the JSON text of its ProjectList: for the HTTP answer,
 * which then needs neither a parse of each stored document nor a serialisation of the page.
 */
export class ListProjectsJsonQuery extends Query<JsonText> {
  constructor(
    readonly workspaceId: string,
    readonly filter: ProjectListFilter,
  ) {
    super();
  }
}

function listQuery(workspaceId: string, filter: ProjectListFilter): FindQuery {
  return {
    workspaceId,
    where: {
      archived: filter.archived,
      ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
    },
    afterSeq: decodeCursor(filter.cursor),
    limit: PAGE_SIZE + 1,
  };
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
    const found = await this.read.find<ProjectView>(PROJECTS, listQuery(workspaceId, filter));
    const page = toPage(found);
    return { projects: page.items, count: page.items.length, cursor: page.cursor };
  }
}

@QueryHandler(ListProjectsJsonQuery)
export class ListProjectsJsonHandler implements IQueryHandler<ListProjectsJsonQuery, JsonText> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, filter }: ListProjectsJsonQuery): Promise<JsonText> {
    return jsonPage('projects', await this.read.findJson(PROJECTS, listQuery(workspaceId, filter)));
  }
}
