import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, Max, Min } from 'class-validator';
import { RECOVER_MESSAGES as M } from '@app/domain';
import { IsOmittable } from '../../http/validators';
import { EXAMPLE } from '../../openapi/schemas/common.schema';

/**
 * POST /webhooks/{id}/recover: failed deliveries created from `since` (ms) up to `until` (ms,
 * default now). A timestamp is a whole number of milliseconds from 0 to the largest safe integer;
 * each field's checks run bottom-up (http/validators.ts).
 */
export class RecoverWebhookDto {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description: 'Unix time in milliseconds: failed deliveries created from then',
    example: EXAMPLE.time,
  })
  @Max(Number.MAX_SAFE_INTEGER, { message: M.sinceTimestamp })
  @Min(0, { message: M.sinceTimestamp })
  @IsInt({ message: M.sinceTimestamp })
  @IsDefined({ message: M.sinceRequired })
  since: number;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description: 'Unix time in milliseconds, after `since`: up to then (exclusive); default now',
    example: EXAMPLE.time + 86_400_000,
  })
  @Max(Number.MAX_SAFE_INTEGER, { message: M.untilTimestamp })
  @Min(0, { message: M.untilTimestamp })
  @IsInt({ message: M.untilTimestamp })
  @IsOmittable()
  until?: number;
}
