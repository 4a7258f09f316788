import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FindQuery, READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE } from '../../shared/pagination';
import { PROJECTS } from '../project.projector';
import { JsonText, jsonPage } from './json-page';
import { ProjectListFilter, ListProjectsJsonQuery } from './list-projects.query';

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
