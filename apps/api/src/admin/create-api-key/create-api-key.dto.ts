import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_SCOPES, ApiKeyScope, WORKSPACE_LIMITS as L, WORKSPACE_MESSAGES as M } from '@app/domain';
import { OneOf, RequiredString } from '../../http/field-rules';
import { ADMIN_FIELD } from '../../openapi/schemas/admin.schema';

/** POST /admin/workspaces/{workspaceId}/api-keys (docs/operator-contract.md). */
export class CreateApiKeyDto {
  @ApiProperty(ADMIN_FIELD.key_name)
  @RequiredString('name', L.apiKeyName.min, L.apiKeyName.max, M.nameLength)
  name: string = undefined as never;

  @ApiProperty(ADMIN_FIELD.scope)
  @OneOf(API_KEY_SCOPES, M.scope)
  scope: ApiKeyScope = undefined as never;
}
