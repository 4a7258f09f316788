import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ProjectView, Status } from '@app/domain';
import { FindQuery, READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE } from '../../shared/pagination';
import { PROJECTS } from '../project.projector';
import { jsonPage, JsonText } from './json-page';

export { jsonPage, JsonText } from './json-page';

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

/**
 * GET /projects: a page of projects as the JSON text of a ProjectList, spliced from the stored
 * documents, so the answer needs neither a parse of each document nor a serialisation of the page.
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

@QueryHandler(ListProjectsJsonQuery)
export class ListProjectsJsonHandler implements IQueryHandler<ListProjectsJsonQuery, JsonText> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, filter }: ListProjectsJsonQuery): Promise<JsonText> {
    return jsonPage('projects', await this.read.findJson(PROJECTS, listQuery(workspaceId, filter)));
  }
}
