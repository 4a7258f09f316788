import { applyDecorators } from '@nestjs/common';
import { IsIn, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import {
  isIsoDate,
  OTHER_STATUS_REASON_LENGTH,
  OTHER_STATUS_REASON_LIMITS,
  OTHER_STATUS_REASON_REQUIRED,
} from '@app/domain';

/**
 * Small building blocks for DTO fields, so every DTO states its rules (and the API reference's messages)
 * in one line per field. With `stopAtFirstError`, checks run in registration order: stacked
 * decorators bottom-up, `applyDecorators(a, b, c)` in list order.
 */

const custom = (name: string, check: (value: unknown) => boolean, message: string) =>
  ValidateBy({ name, validator: { validate: check, defaultMessage: () => message } }, { message } as ValidationOptions);

/** Counts characters as people do (code points), not UTF-16 units. */
export const charLength = (value: string) => [...value].length;

const lengthBetween = (min: number, max: number) => (v: unknown) =>
  typeof v === 'string' && charLength(v) >= min && charLength(v) <= max;

/** Validates only when the field is present in the body (undefined means "not supplied"). */
export const WhenPresent = () => ValidateIf((_o, v) => v !== undefined);
/** Validates only when present and not null (null clears a nullable field). */
export const WhenSet = () => ValidateIf((_o, v) => v !== undefined && v !== null);

export const Required = (message: string) => custom('required', (v) => v !== undefined && v !== null, message);

export const IsStringField = (field: string, message = `${field} must be a string`) =>
  custom('isString', (v) => typeof v === 'string', message);

export const LengthBetween = (min: number, max: number, message: string) =>
  custom('lengthBetween', lengthBetween(min, max), message);

export const IsIsoDate = (message: string) => custom('isIsoDate', isIsoDate, message);

export const OneOf = (values: readonly unknown[], message: string) => IsIn(values as unknown[], { message });

export const IsBooleanField = (message: string) => custom('isBoolean', (v) => typeof v === 'boolean', message);

export const IsIntegerInRange = (min: number, max: number, message: string) =>
  custom('intRange', (v) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max, message);

/** A required string with a length range: missing -> required message; wrong type; wrong length. */
export const RequiredString = (field: string, min: number, max: number, lengthMessage: string) =>
  applyDecorators(Required(`${field} is required`), IsStringField(field), LengthBetween(min, max, lengthMessage));

/** An optional string (absent or null means "not given") with a maximum length. */
export const OptionalString = (field: string, max: number, lengthMessage: string) =>
  applyDecorators(WhenSet(), IsStringField(field), LengthBetween(0, max, lengthMessage));

/** `other_status_reason` of projects and jobs: required when the status is `other`; checked whenever given. */
export const OtherStatusReason = () =>
  applyDecorators(
    ValidateIf(
      (o: { status?: unknown; other_status_reason?: unknown }) =>
        o.status === 'other' || (o.other_status_reason !== undefined && o.other_status_reason !== null),
    ),
    Required(OTHER_STATUS_REASON_REQUIRED),
    IsStringField('other_status_reason'),
    LengthBetween(OTHER_STATUS_REASON_LIMITS.min, OTHER_STATUS_REASON_LIMITS.max, OTHER_STATUS_REASON_LENGTH),
  );
