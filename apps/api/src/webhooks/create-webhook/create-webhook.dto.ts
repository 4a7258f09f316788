import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_LIMITS as L, WEBHOOK_MESSAGES, WebhookEventType } from '@app/domain';
import { IsStringField, Required, RequiredString } from '../../http/field-rules';
import { WEBHOOK_FIELD } from '../../openapi/schemas/webhooks.schema';
import { check, EventTypes, startsWithHttps } from '../webhook-field-rules';

/** POST /webhooks (docs/api.md, Webhooks); fields in the order the API reference lists their messages. */
export class CreateWebhookDto {
  @ApiProperty(WEBHOOK_FIELD.name)
  @RequiredString('name', L.name.min, L.name.max, WEBHOOK_MESSAGES.nameLength)
  name: string = undefined as never;

  @ApiProperty(WEBHOOK_FIELD.url)
  @applyDecorators(
    Required(WEBHOOK_MESSAGES.urlRequired),
    IsStringField('url'),
    check('https', startsWithHttps, WEBHOOK_MESSAGES.urlHttps),
  )
  url: string = undefined as never;

  @ApiProperty(WEBHOOK_FIELD.event_types)
  @EventTypes(WEBHOOK_MESSAGES.eventTypesRequired)
  event_types: WebhookEventType[] = undefined as never;
}
