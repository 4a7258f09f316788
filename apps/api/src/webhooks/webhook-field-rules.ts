import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidationArguments } from 'class-validator';
import {
  invalidEventType,
  isWebhookEventType,
  WEBHOOK_LIMITS as L,
  WEBHOOK_MESSAGES,
  WEBHOOK_STATUSES,
  WEBHOOK_URL_PREFIX,
} from '@app/domain';
import { IsStringField, LengthBetween, OneOf, RequestField, requestFields } from '../http/field-rules';
import { WEBHOOK_FIELD } from '../openapi/schemas/webhooks.schema';

/** Field rules the webhook DTOs share beyond ../http/field-rules.ts. */

export const check = (
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
export const EventTypes = (emptyMessage: string) =>
  applyDecorators(
    check('eventTypesArray', (v) => Array.isArray(v) && v.length > 0, emptyMessage),
    check(
      'eventTypesKnown',
      (v) => Array.isArray(v) && v.every(isWebhookEventType),
      (args) => invalidEventType((args.value as unknown[]).find((t) => !isWebhookEventType(t))),
    ),
  );

const https = (message: string) => () => check('https', startsWithHttps, message);

/**
 * Every webhook field declared once (see RequestField in ../http/field-rules.ts): its checks, and
 * how create and update each treat it (docs/api.md, Webhooks). `status` is set by an update only.
 */
export const WEBHOOK_FIELDS = {
  name: {
    check: () =>
      applyDecorators(IsStringField('name'), LengthBetween(L.name.min, L.name.max, WEBHOOK_MESSAGES.nameLength)),
    create: { when: { required: WEBHOOK_MESSAGES.nameRequired }, doc: WEBHOOK_FIELD.name },
    update: { when: 'present', doc: WEBHOOK_FIELD.name },
  },
  url: {
    create: {
      when: { required: WEBHOOK_MESSAGES.urlRequired },
      doc: WEBHOOK_FIELD.url,
      check: () => applyDecorators(IsStringField('url'), https(WEBHOOK_MESSAGES.urlHttps)()),
    },
    update: { when: 'present', doc: WEBHOOK_FIELD.url, check: https(WEBHOOK_MESSAGES.urlUpdate) },
  },
  event_types: {
    create: {
      when: 'always',
      doc: WEBHOOK_FIELD.event_types,
      check: () => EventTypes(WEBHOOK_MESSAGES.eventTypesRequired),
    },
    update: {
      when: 'present',
      doc: WEBHOOK_FIELD.event_types,
      check: () => EventTypes(WEBHOOK_MESSAGES.eventTypesUpdate),
    },
  },
  status: {
    check: () => OneOf(WEBHOOK_STATUSES, WEBHOOK_MESSAGES.status),
    update: { when: 'present', doc: WEBHOOK_FIELD.status },
  },
} satisfies Record<string, RequestField>;

/** The webhook fields as POST /webhooks and PATCH /webhooks/{id} take them. */
export const { OnCreate, OnUpdate } = requestFields(WEBHOOK_FIELDS);
