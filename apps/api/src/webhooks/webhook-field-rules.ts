import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidationArguments } from 'class-validator';
import { invalidEventType, isWebhookEventType, WEBHOOK_URL_PREFIX } from '@app/domain';

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

export const startsWithHttps = (value: unknown) => typeof value === 'string' && value.startsWith(WEBHOOK_URL_PREFIX);

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
