import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { validationError } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore, StoredDocument } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { PROJECTS } from '../../projects/project.projector';
import { API_KEYS, MEMBERS, WORKSPACES, WorkspaceDoc } from '../workspace.projector';
import {
  ListWorkspacesQuery,
  WORKSPACE_SEARCH_MAX,
  WORKSPACE_SEARCH_MESSAGE,
  WorkspaceList,
  WorkspaceListItem,
} from './list-workspaces.query';

/**
 * Documents read per step of a search. The read-model port filters on equality only, so a search
 * by name reads the workspaces in `seq` order and keeps those that match: one collection of one
 * document per tenant, read by operators, not on any API key's path.
 */
const SEARCH_BATCH = 500;

@QueryHandler(ListWorkspacesQuery)
export class ListWorkspacesHandler implements IQueryHandler<ListWorkspacesQuery, WorkspaceList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ filter }: ListWorkspacesQuery): Promise<WorkspaceList> {
    const afterSeq = decodeCursor(filter.cursor);
    const found =
      filter.q === undefined ? await this.page(afterSeq) : await this.search(searchTerm(filter.q), afterSeq);
    const page = toPage(found);
    const workspaces = await Promise.all(page.items.map((doc) => workspaceItem(this.read, doc)));
    return { workspaces, count: workspaces.length, cursor: page.cursor };
  }

  private page(afterSeq: number | undefined) {
    return this.read.find<WorkspaceDoc>(WORKSPACES, { afterSeq, limit: PAGE_SIZE + 1 });
  }

  private async search(term: string, afterSeq: number | undefined): Promise<StoredDocument<WorkspaceDoc>[]> {
    const matches: StoredDocument<WorkspaceDoc>[] = [];
    let after = afterSeq;
    for (;;) {
      const batch = await this.read.find<WorkspaceDoc>(WORKSPACES, { afterSeq: after, limit: SEARCH_BATCH });
      for (const found of batch) {
        if (found.doc.name.toLowerCase().includes(term)) matches.push(found);
        if (matches.length > PAGE_SIZE) return matches;
      }
      if (batch.length < SEARCH_BATCH) return matches;
      after = batch[batch.length - 1].seq;
    }
  }
}

/** The search term, compared without regard to case; 400 naming `q` when it is not a usable string. */
export function searchTerm(q: unknown): string {
  if (typeof q !== 'string' || q.trim().length === 0 || q.length > WORKSPACE_SEARCH_MAX) {
    throw validationError(WORKSPACE_SEARCH_MESSAGE);
  }
  return q.trim().toLowerCase();
}

/** A workspace with its usage counted from the read models. */
export async function workspaceItem(read: ReadModelStore, doc: WorkspaceDoc): Promise<WorkspaceListItem> {
  const workspaceId = doc.id;
  const [projects, keys, activeKeys, members] = await Promise.all([
    read.count(PROJECTS, { workspaceId }),
    read.count(API_KEYS, { workspaceId }),
    read.count(API_KEYS, { workspaceId, where: { status: 'active' } }),
    read.count(MEMBERS, { workspaceId }),
  ]);
  return {
    id: doc.id,
    name: doc.name,
    plan: doc.plan,
    project_limit: doc.project_limit,
    projects_used: projects,
    api_keys: keys,
    active_api_keys: activeKeys,
    members,
    created: doc.created,
    updated: doc.updated,
  };
}
