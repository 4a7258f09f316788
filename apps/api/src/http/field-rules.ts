import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsIn, ValidateBy, ValidateIf, ValidationOptions } from 'class-validator';
import {
  isIsoDate,
  OTHER_STATUS_REASON_LENGTH,
  OTHER_STATUS_REASON_LIMITS,
  OTHER_STATUS_REASON_REQUIRED,
  mustBeString,
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

export const IsStringField = (field: string, message = mustBeString(field)) =>
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

/** How a request treats a field's absence; the field's own checks run only when it applies. */
export type Presence =
  /** Required, with no message of its own: a missing value fails the field's first check. */
  | 'always'
  /** Required: absent or null fails with this message first. */
  | { required: string }
  /** Optional; the field's checks carry their own condition. */
  | 'own'
  /** Checked when present (not undefined): null is checked, and refused, like any other value. */
  | 'present'
  /** Checked when present and not null. */
  | 'set';

export interface RequestUse {
  when: Presence;
  /** How the document describes the field in this request. */
  doc: ApiPropertyOptions;
  /** This request's checks, where they differ from the field's. */
  check?: () => PropertyDecorator;
}

/**
 * A field of a resource as its create and update requests take it, declared once: its checks (in
 * the order they run) and, per request, whether it must be given and how the document shows it.
 * A field one request does not take leaves that request out.
 */
export interface RequestField {
  check?: () => PropertyDecorator;
  create?: RequestUse;
  update?: RequestUse;
}

const presence = (when: Presence): PropertyDecorator[] =>
  when === 'present'
    ? [WhenPresent()]
    : when === 'set'
      ? [WhenSet()]
      : typeof when === 'object'
        ? [Required(when.required)]
        : [];

type TakenBy<T, R extends 'create' | 'update'> = {
  [K in keyof T]: T[K] extends Record<R, RequestUse> ? K : never;
}[keyof T];

/**
 * The property decorators of a resource's field table: `@OnCreate('name') name: string` gives the
 * field its document entry, its presence rule and its checks. The DTOs then only list their fields,
 * each in the order of the API reference's messages for that request, which is the order their
 * failures are reported in (validation.ts).
 */
export function requestFields<T extends Record<string, RequestField>>(table: T) {
  const decorate = (field: keyof T, request: 'create' | 'update') => {
    const rule: RequestField = table[field];
    const use = rule[request];
    if (!use) throw new Error(`${String(field)} is not a field of the ${request} request`);
    const required = typeof use.when === 'object' || use.when === 'always';
    const check = use.check ?? rule.check;
    return applyDecorators(
      required ? ApiProperty(use.doc) : ApiPropertyOptional(use.doc),
      ...presence(use.when),
      ...(check ? [check()] : []),
    );
  };
  return {
    OnCreate: (field: TakenBy<T, 'create'>) => decorate(field, 'create'),
    OnUpdate: (field: TakenBy<T, 'update'>) => decorate(field, 'update'),
  };
}
