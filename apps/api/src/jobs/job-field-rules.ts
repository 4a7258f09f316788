import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy, ValidationOptions } from 'class-validator';
import {
  CAPTURE_TYPES,
  JOB_LIMITS as L,
  JOB_MESSAGES as M,
  JOB_PATTERNS,
  PRIORITIES,
  RECURRING_FREQUENCIES,
  STATUS_MESSAGE,
  STATUS_VALUES,
  WEEKS_OF_MONTH,
} from '@app/domain';
import {
  IsIntegerInRange,
  IsIsoDate,
  IsStringField,
  LengthBetween,
  OneOf,
  OtherStatusReason,
  RequestField,
  requestFields,
} from '../http/field-rules';
import { orNull } from '../openapi/schemas/common.schema';
import { JOB_FIELD as F } from '../openapi/schemas/jobs.schema';
import { STATUS_FIELD } from '../openapi/schemas/projects.schema';

/**
 * Field rules the job and assignment DTOs need beyond ../http/field-rules.ts: numbers in a range
 * and lists checked step by step (type, length, values, duplicates), each step with its own
 * message, so a client learns exactly what is wrong with which field.
 */

const check = (name: string, validate: (value: unknown) => boolean, message: string) =>
  ValidateBy({ name, validator: { validate, defaultMessage: () => message } }, { message } as ValidationOptions);

/** A JSON number (never a numeric string) within [min, max]. */
export const NumberBetween = (min: number, max: number, typeMessage: string, rangeMessage: string) =>
  applyDecorators(
    check('isNumber', (v) => typeof v === 'number' && Number.isFinite(v), typeMessage),
    check('numberRange', (v) => typeof v === 'number' && v >= min && v <= max, rangeMessage),
  );

export interface ListRule {
  /** Whether a value may appear in the list. */
  allows: (value: unknown) => boolean;
  maxItems: number;
  messages: { array: string; count: string; values: string; unique: string };
}

/** A list: an array, of at most `maxItems`, of allowed values, without duplicates — checked in that order. */
export const ListOf = ({ allows, maxItems, messages }: ListRule) =>
  applyDecorators(
    check('isArray', (v) => Array.isArray(v), messages.array),
    check('maxItems', (v) => Array.isArray(v) && v.length <= maxItems, messages.count),
    check('listValues', (v) => Array.isArray(v) && v.every(allows), messages.values),
    check('uniqueItems', (v) => Array.isArray(v) && new Set(v).size === v.length, messages.unique),
  );

/**
 * The `pilots` list of assign / unassign: a non-empty array (the API reference's message covers missing,
 * null, not an array and empty alike), of at most `maxItems` ids, each a non-empty string.
 * Repeated ids are allowed and count once.
 */
export const PilotIdList = (requiredMessage: string, maxItems: number, countMessage: string, idMessage: string) =>
  applyDecorators(
    check('pilotsRequired', (v) => Array.isArray(v) && v.length > 0, requiredMessage),
    check('pilotsCount', (v) => Array.isArray(v) && v.length <= maxItems, countMessage),
    check('pilotIds', (v) => Array.isArray(v) && v.every((id) => typeof id === 'string' && id.length > 0), idMessage),
  );

/**
 * Every job field declared once (see RequestField in ../http/field-rules.ts): its own checks, and
 * how create and update each treat its absence (docs/api.md, Jobs). On create, null means "not
 * given" for every optional field; on update, null clears exactly the fields the API reference lists
 * as nullable (`set`), and is refused like any other wrong type for the others (`present`).
 */

/** A field both requests take. */
type InBoth = RequestField & Required<Pick<RequestField, 'create' | 'update'>>;

/** A list field, nullable on create and update alike. */
const list = (doc: ApiPropertyOptions, rule: ListRule): InBoth => ({
  check: () => ListOf(rule),
  create: { when: 'set', doc: orNull(doc) },
  update: { when: 'set', doc: orNull(doc) },
});

/** A field create and update treat alike: null clears it (or, on create, leaves it unset). */
const nullable = (doc: ApiPropertyOptions, check: () => PropertyDecorator): InBoth => ({
  check,
  create: { when: 'set', doc: orNull(doc) },
  update: { when: 'set', doc: orNull(doc) },
});

const EMPTIED_NOT_NULLED = 'Send "" to empty it (null is refused)';
const checkedOnChange = (doc: { description: string }) => `${doc.description}; checked only when it changes`;
const among = (values: readonly unknown[]) => (v: unknown) => values.includes(v);

export const JOB_FIELDS = {
  name: {
    check: () => applyDecorators(IsStringField('name'), LengthBetween(L.name.min, L.name.max, M.nameLength)),
    create: { when: { required: M.nameRequired }, doc: F.name },
    update: { when: 'present', doc: F.name },
  },
  type: {
    check: () => IsStringField('type'),
    create: { when: { required: M.typeRequired }, doc: F.type },
    update: { when: 'present', doc: { ...F.type, description: checkedOnChange(F.type) } },
  },
  job_pattern: {
    check: () => OneOf(JOB_PATTERNS, M.jobPattern),
    create: { when: 'always', doc: F.job_pattern },
    update: { when: 'present', doc: F.job_pattern },
  },
  start_date: {
    check: () => IsIsoDate(M.startDateFormat),
    create: { when: { required: M.startDateRequired }, doc: F.start_date },
    update: { when: 'present', doc: { ...F.start_date, description: checkedOnChange(F.start_date) } },
  },
  end_date: {
    check: () => IsIsoDate(M.endDateFormat),
    create: { when: 'set', doc: orNull(F.end_date) },
    update: {
      when: 'set',
      doc: { ...orNull(F.end_date), description: 'ISO 8601 date, on or after start_date; null clears it' },
    },
  },
  latitude: {
    check: () => NumberBetween(L.latitude.min, L.latitude.max, M.latitudeNumber, M.latitudeRange),
    create: { when: 'set', doc: orNull(F.latitude) },
    update: { when: 'set', doc: { ...orNull(F.latitude), description: 'null clears it, together with longitude' } },
  },
  longitude: {
    check: () => NumberBetween(L.longitude.min, L.longitude.max, M.longitudeNumber, M.longitudeRange),
    create: { when: 'set', doc: orNull(F.longitude) },
    update: { when: 'set', doc: { ...orNull(F.longitude), description: 'null clears it, together with latitude' } },
  },
  status: {
    check: () => OneOf(STATUS_VALUES, STATUS_MESSAGE),
    create: { when: 'set', doc: { ...orNull(STATUS_FIELD), default: 'not_started' } },
    update: { when: 'present', doc: STATUS_FIELD },
  },
  other_status_reason: {
    check: () => OtherStatusReason(),
    create: { when: 'own', doc: F.other_status_reason },
    update: { when: 'own', doc: F.other_status_reason },
  },
  external_id: nullable(F.external_id, () =>
    applyDecorators(IsStringField('external_id'), LengthBetween(0, L.externalId, M.externalIdLength)),
  ),
  priority: {
    check: () => OneOf(PRIORITIES, M.priority),
    create: { when: 'set', doc: { ...orNull(F.priority), default: 'medium' } },
    update: { when: 'present', doc: F.priority },
  },
  description: {
    check: () => applyDecorators(IsStringField('description'), LengthBetween(0, L.description, M.descriptionLength)),
    create: { when: 'set', doc: orNull(F.description) },
    update: { when: 'present', doc: { ...F.description, description: EMPTIED_NOT_NULLED } },
  },
  inspection_notes: {
    check: () =>
      applyDecorators(IsStringField('inspection_notes'), LengthBetween(0, L.inspectionNotes, M.inspectionNotesLength)),
    create: { when: 'set', doc: orNull(F.inspection_notes) },
    update: { when: 'present', doc: { ...F.inspection_notes, description: EMPTIED_NOT_NULLED } },
  },
  capture_types: list(F.capture_types, {
    allows: among(CAPTURE_TYPES),
    maxItems: L.captureTypes,
    messages: {
      array: M.captureTypesArray,
      count: M.captureTypesCount,
      values: M.captureTypesValues,
      unique: M.captureTypesUnique,
    },
  }),
  recurring_frequency: nullable(F.recurring_frequency, () => OneOf(RECURRING_FREQUENCIES, M.recurringFrequency)),
  recurring_interval: nullable(F.recurring_interval, () =>
    IsIntegerInRange(L.recurringInterval.min, L.recurringInterval.max, M.recurringInterval),
  ),
  selected_days_of_week: list(F.selected_days_of_week, {
    allows: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 6,
    maxItems: L.selectedDaysOfWeek,
    messages: {
      array: M.selectedDaysArray,
      count: M.selectedDaysCount,
      values: M.selectedDaysValues,
      unique: M.selectedDaysUnique,
    },
  }),
  week_of_month: nullable(F.week_of_month, () => OneOf(WEEKS_OF_MONTH, M.weekOfMonth)),
  weeks_of_month: list(F.weeks_of_month, {
    allows: among(WEEKS_OF_MONTH),
    maxItems: L.weeksOfMonth,
    messages: {
      array: M.weeksOfMonthArray,
      count: M.weeksOfMonthCount,
      values: M.weeksOfMonthValues,
      unique: M.weeksOfMonthUnique,
    },
  }),
  flights_per_occurrence: nullable(F.flights_per_occurrence, () =>
    IsIntegerInRange(L.flightsPerOccurrence.min, L.flightsPerOccurrence.max, M.flightsPerOccurrence),
  ),
} satisfies Record<string, RequestField>;

/** The job fields as POST .../jobs and PATCH .../jobs/{jobId} take them. */
export const { OnCreate, OnUpdate } = requestFields(JOB_FIELDS);
