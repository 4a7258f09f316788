import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RECOVER_MESSAGES } from '@app/domain';
import { Required, WhenPresent } from '../../http/field-rules';
import { RECOVER_FIELD } from '../../openapi/schemas/webhooks.schema';
import { check } from '../webhook-field-rules';

const isTimestamp = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** POST /webhooks/{id}/recover: failed deliveries created from `since` (ms) up to `until` (ms, default now). */
export class RecoverWebhookDto {
  @ApiProperty(RECOVER_FIELD.since)
  @applyDecorators(
    Required(RECOVER_MESSAGES.sinceRequired),
    check('timestamp', isTimestamp, RECOVER_MESSAGES.sinceTimestamp),
  )
  since: number = undefined as never;

  @ApiPropertyOptional(RECOVER_FIELD.until)
  @applyDecorators(WhenPresent(), check('timestamp', isTimestamp, RECOVER_MESSAGES.untilTimestamp))
  until?: number = undefined;
}
