import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, ValidationArguments } from 'class-validator';
import {
  invalidEventType,
  isWebhookEventType,
  RECOVER_MESSAGES,
  WEBHOOK_LIMITS as L,
  WEBHOOK_MESSAGES,
  WEBHOOK_URL_PREFIX,
  WEBHOOK_STATUSES,
  WebhookEventType,
  WebhookStatus,
} from '@app/domain';
import { IsStringField, LengthBetween, OneOf, Required, RequiredString, WhenPresent } from '../http/field-rules';
import { RECOVER_FIELD, WEBHOOK_FIELD } from '../openapi/schemas/webhooks.schema';

const check = (
  name: string,
  validate: (value: unknown) => boolean,
  message: string | ((args: ValidationArguments) => string),
) =>
  ValidateBy(
    { name, validator: { validate, defaultMessage: typeof message === 'string' ? () => message : message } },
    { message },
  );

const startsWithHttps = (value: unknown) => typeof value === 'string' && value.startsWith(WEBHOOK_URL_PREFIX);

/** A non-empty array (else `emptyMessage`) whose every item is a section-6 type (else `Invalid event type: <type>`). */
const EventTypes = (emptyMessage: string) =>
  applyDecorators(
    check('eventTypesArray', (v) => Array.isArray(v) && v.length > 0, emptyMessage),
    check(
      'eventTypesKnown',
      (v) => Array.isArray(v) && v.every(isWebhookEventType),
      (args) => invalidEventType((args.value as unknown[]).find((t) => !isWebhookEventType(t))),
    ),
  );

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
