import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString } from 'class-validator';
import { API_KEY_SCOPES, ApiKeyScope, WORKSPACE_LIMITS as L, WORKSPACE_MESSAGES as M } from '@app/domain';
import { CharLength, MUST_BE_STRING } from '../../http/validators';

/**
 * POST /admin/workspaces/{workspaceId}/api-keys (docs/operator-contract.md). Each field's checks
 * run bottom-up (http/validators.ts).
 */
export class CreateApiKeyDto {
  @ApiProperty({ type: String, minLength: L.apiKeyName.min, maxLength: L.apiKeyName.max, example: 'Ops bot' })
  @CharLength(L.apiKeyName.min, L.apiKeyName.max, M.nameLength)
  @IsString(MUST_BE_STRING)
  @IsDefined({ message: M.nameRequired })
  name: string;

  @ApiProperty({
    enum: [...API_KEY_SCOPES],
    description: '`read_only`: GET only; `full_access`: every method',
    example: 'full_access',
  })
  @IsIn(API_KEY_SCOPES, { message: M.scope })
  scope: ApiKeyScope;
}
