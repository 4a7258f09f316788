import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { API_KEY_NOT_FOUND } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { ownDocument } from '../../shared/tenant';
import { ApiKeyUsageRecorder } from '../api-key-usage-recorder';
import { API_KEYS, ApiKeyDoc } from '../workspace.projector';
import { apiKeyItems } from '../list-api-keys/list-api-keys.handler';
import { ApiKeyListItem } from '../list-api-keys/list-api-keys.query';
import { GetApiKeyQuery } from './get-api-key.query';

@QueryHandler(GetApiKeyQuery)
export class GetApiKeyHandler implements IQueryHandler<GetApiKeyQuery, ApiKeyListItem> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    private readonly usage: ApiKeyUsageRecorder,
  ) {}

  async execute({ workspaceId, keyId }: GetApiKeyQuery): Promise<ApiKeyListItem> {
    const key = ownDocument(await this.read.get<ApiKeyDoc>(API_KEYS, keyId), workspaceId, API_KEY_NOT_FOUND);
    const [item] = await apiKeyItems(this.read, this.usage, [key.doc]);
    return item;
  }
}
