import { Query } from '@nestjs/cqrs';
import { ApiKeyListItem } from '../list-api-keys/list-api-keys.query';

/** One API key of a workspace; another workspace's key is not found, like a missing one. */
export class GetApiKeyQuery extends Query<ApiKeyListItem> {
  constructor(
    readonly workspaceId: string,
    readonly keyId: string,
  ) {
    super();
  }
}
