import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { ApiKeyUsageRecorder } from '../api-key-usage-recorder';
import { API_KEY_ACTORS, ApiKeyActorsDoc } from '../api-key-actors.projector';
import { API_KEYS, ApiKeyDoc } from '../workspace.projector';
import { ApiKeyList, ApiKeyListItem, ListApiKeysQuery } from './list-api-keys.query';

@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery, ApiKeyList> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    private readonly usage: ApiKeyUsageRecorder,
  ) {}

  async execute({ workspaceId, cursor }: ListApiKeysQuery): Promise<ApiKeyList> {
    const found = await this.read.find<ApiKeyDoc>(API_KEYS, {
      workspaceId,
      afterSeq: decodeCursor(cursor),
      limit: PAGE_SIZE + 1,
    });
    const page = toPage(found);
    const api_keys = await apiKeyItems(this.read, this.usage, page.items);
    return { api_keys, count: api_keys.length, cursor: page.cursor };
  }
}

/** Keys as their workspace's people see them: with their creator, deactivator and last use. */
export async function apiKeyItems(
  read: ReadModelStore,
  usage: ApiKeyUsageRecorder,
  keys: readonly ApiKeyDoc[],
): Promise<ApiKeyListItem[]> {
  const ids = keys.map((key) => key.id);
  const [lastUsed, actors] = await Promise.all([
    usage.lastUsed(ids),
    Promise.all(ids.map((id) => read.get<ApiKeyActorsDoc>(API_KEY_ACTORS, id))),
  ]);
  return keys.map((key, i) => ({
    id: key.id,
    name: key.name,
    scope: key.scope,
    status: key.status,
    created: key.created,
    created_by: actors[i]?.doc.created_by ?? null,
    last_used_at: lastUsed.get(key.id) ?? null,
    deactivated: actors[i]?.doc.deactivated ?? null,
    deactivated_by: actors[i]?.doc.deactivated_by ?? null,
  }));
}
