import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectView } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore, StoredDocument, Filter } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { PROJECTS } from '../project.projector';
import { ListProjectsQuery, ProjectList } from './list-projects.query';

/** Projects read at a time while searching by name. */
export const NAME_SEARCH_BATCH = 500;

/**
 * Projects of a workspace in creation order, non-archived ones unless asked for archived ones,
 * optionally of some statuses only, or whose name contains a text; the cursor is the `seq` of the
 * last one shown.
 */
@QueryHandler(ListProjectsQuery)
export class ListProjectsHandler implements IQueryHandler<ListProjectsQuery, ProjectList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, filter }: ListProjectsQuery): Promise<ProjectList> {
    const where = {
      archived: filter.archived,
      ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
    };
    const afterSeq = decodeCursor(filter.cursor);
    const found =
      filter.nameContains === undefined
        ? await this.read.find<ProjectView>(PROJECTS, { workspaceId, where, afterSeq, limit: PAGE_SIZE + 1 })
        : await this.named(workspaceId, where, afterSeq, filter.nameContains);
    const page = toPage(found);
    return { projects: page.items, count: page.items.length, cursor: page.cursor };
  }

  /**
   * A page (and one more) of the projects whose name contains `text`, ignoring case. The read
   * models match fields exactly, so the workspace's projects are read in batches, in list order,
   * until a page is full or none are left.
   */
  private async named(
    workspaceId: string,
    where: Filter,
    afterSeq: number | undefined,
    text: string,
  ): Promise<StoredDocument<ProjectView>[]> {
    const needle = text.toLocaleLowerCase();
    const matches: StoredDocument<ProjectView>[] = [];
    let after = afterSeq;
    for (;;) {
      const batch = await this.read.find<ProjectView>(PROJECTS, {
        workspaceId,
        where,
        afterSeq: after,
        limit: NAME_SEARCH_BATCH,
      });
      for (const found of batch) {
        if (!found.doc.name.toLocaleLowerCase().includes(needle)) continue;
        matches.push(found);
        if (matches.length > PAGE_SIZE) return matches;
      }
      if (batch.length < NAME_SEARCH_BATCH) return matches;
      after = batch[batch.length - 1].seq;
    }
  }
}
