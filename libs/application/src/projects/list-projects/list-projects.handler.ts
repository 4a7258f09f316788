import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectView } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { PROJECTS } from '../project.projector';
import { ListProjectsQuery, ProjectList } from './list-projects.query';

/**
 * Projects of a workspace in creation order, non-archived ones unless asked for archived ones,
 * optionally of some statuses only; the cursor is the `seq` of the last one shown.
 */
@QueryHandler(ListProjectsQuery)
export class ListProjectsHandler implements IQueryHandler<ListProjectsQuery, ProjectList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, filter }: ListProjectsQuery): Promise<ProjectList> {
    const found = await this.read.find<ProjectView>(PROJECTS, {
      workspaceId,
      where: {
        archived: filter.archived,
        ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
      },
      afterSeq: decodeCursor(filter.cursor),
      limit: PAGE_SIZE + 1,
    });
    const page = toPage(found);
    return { projects: page.items, count: page.items.length, cursor: page.cursor };
  }
}
