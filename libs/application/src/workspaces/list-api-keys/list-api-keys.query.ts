import { Query } from '@nestjs/cqrs';
import { Actor, ApiKeyScope } from '@app/domain';

/** An API key as its workspace's people see it: never the secret, nor its hash. */
export interface ApiKeyListItem {
  id: string;
  name: string;
  scope: ApiKeyScope;
  status: 'active' | 'inactive';
  created: number;
  /** Null only while the `api_key_actors` projection has not caught up with the key. */
  created_by: Actor | null;
  /** Accurate to a minute (docs/dashboard.md); null when never used. */
  last_used_at: number | null;
  deactivated: number | null;
  deactivated_by: Actor | null;
}

export interface ApiKeyList {
  api_keys: ApiKeyListItem[];
  count: number;
  cursor: string | null;
}

/** A workspace's API keys in the order they were created, a page at a time. */
export class ListApiKeysQuery extends Query<ApiKeyList> {
  constructor(
    readonly workspaceId: string,
    readonly cursor?: string,
  ) {
    super();
  }
}
