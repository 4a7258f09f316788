import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { API_KEY_SCOPES, ApiKeyScope, WORKSPACE_LIMITS as L, WORKSPACE_MESSAGES as M } from '@app/domain';
import { Name } from '../admin-fields';

/**
 * POST /admin/workspaces/{workspaceId}/api-keys (docs/operator-contract.md). Each field's checks
 * run bottom-up (http/validators.ts).
 */
export class CreateApiKeyDto {
  @Name(L.apiKeyName, 'Ops bot')
  name: string;

  @ApiProperty({
    enum: [...API_KEY_SCOPES],
    description: '`read_only`: GET only; `full_access`: every method',
    example: 'full_access',
  })
  @IsIn(API_KEY_SCOPES, { message: M.scope })
  scope: ApiKeyScope;
}
