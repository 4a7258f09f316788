import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { WEBHOOK_LIMITS as L, WEBHOOK_MESSAGES, WEBHOOK_STATUSES, WebhookEventType, WebhookStatus } from '@app/domain';
import { IsStringField, LengthBetween, OneOf, WhenPresent } from '../../http/field-rules';
import { WEBHOOK_FIELD } from '../../openapi/schemas/webhooks.schema';
import { check, EventTypes, startsWithHttps } from '../webhook-field-rules';

/** PATCH /webhooks/{id}: at least one field (checked by the controller); only supplied fields change. */
export class UpdateWebhookDto {
  @ApiPropertyOptional(WEBHOOK_FIELD.name)
  @applyDecorators(
    WhenPresent(),
    IsStringField('name'),
    LengthBetween(L.name.min, L.name.max, WEBHOOK_MESSAGES.nameLength),
  )
  name?: string = undefined;

  @ApiPropertyOptional(WEBHOOK_FIELD.url)
  @applyDecorators(WhenPresent(), check('https', startsWithHttps, WEBHOOK_MESSAGES.urlUpdate))
  url?: string = undefined;

  @ApiPropertyOptional(WEBHOOK_FIELD.event_types)
  @applyDecorators(WhenPresent(), EventTypes(WEBHOOK_MESSAGES.eventTypesUpdate))
  event_types?: WebhookEventType[] = undefined;

  @ApiPropertyOptional(WEBHOOK_FIELD.status)
  @applyDecorators(WhenPresent(), OneOf(WEBHOOK_STATUSES, WEBHOOK_MESSAGES.status))
  status?: WebhookStatus = undefined;
}
