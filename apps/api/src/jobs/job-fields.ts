import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
} from 'class-validator';
import {
  ASSIGNMENT_MESSAGES,
  CAPTURE_TYPES,
  JOB_LIMITS as L,
  JOB_MESSAGES as M,
  MAX_PILOTS_PER_REQUEST,
  RECURRING_FREQUENCIES,
  WEEKS_OF_MONTH,
} from '@app/domain';
import { CharLength, IsIsoDate, MUST_BE_STRING } from '../http/validators';
import { EXAMPLE, orNull } from '../openapi/schemas/common.schema';
import { JOB_FIELD as F } from '../openapi/schemas/jobs.schema';
import { withDescription } from '../projects/project-fields';

/**
 * The fields that more than one job request takes, each declared once. Each decorator lists its
 * checks in the order they run (`applyDecorators` registers its arguments first to last, the
 * reverse of a written stack), its presence check first and its documentation last. Where the
 * requests differ only in what the document says, the description is the parameter; where they
 * differ in presence (required on create, omittable on update), the decorator holds the value's
 * checks only and each DTO writes its own presence check below it and its documentation above it.
 */

/** name's checks: a string of the documented length. */
export const NameChecks = () =>
  applyDecorators(IsString(MUST_BE_STRING), CharLength(L.name.min, L.name.max, M.nameLength));

/** description's checks: a string of at most the documented length. */
export const DescriptionChecks = () =>
  applyDecorators(IsString(MUST_BE_STRING), CharLength(0, L.description, M.descriptionLength));

/** inspection_notes's checks: a string of at most the documented length. */
export const InspectionNotesChecks = () =>
  applyDecorators(IsString(MUST_BE_STRING), CharLength(0, L.inspectionNotes, M.inspectionNotesLength));

/** end_date: optional; null means not given on create and clears it on update. */
export const EndDate = (description?: string) =>
  applyDecorators(
    IsOptional(),
    IsIsoDate(M.endDateFormat),
    ApiPropertyOptional(withDescription(orNull(F.end_date), description)),
  );

/** An optional number within `range` (null as not given or clearing it), `typeCheck` first. */
const optionalInRange = (
  typeCheck: PropertyDecorator,
  range: { min: number; max: number },
  rangeMessage: string,
  doc: ApiPropertyOptions,
) =>
  applyDecorators(
    IsOptional(),
    typeCheck,
    Min(range.min, { message: rangeMessage }),
    Max(range.max, { message: rangeMessage }),
    ApiPropertyOptional(doc),
  );

/** An optional one of `choices` (null as not given or clearing it). */
const optionalChoice = (choices: readonly unknown[], message: string, doc: ApiPropertyOptions) =>
  applyDecorators(IsOptional(), IsIn(choices, { message }), ApiPropertyOptional(doc));

/** The messages of a list field, in the order its checks run. */
type ListMessages = { array: string; count: string; unique: string };

/**
 * An optional list (null as not given or clearing it) of at most `max` distinct items, each checked
 * by `itemChecks` (written with `each: true`).
 */
const optionalDistinctList = (max: number, m: ListMessages, itemChecks: PropertyDecorator[], doc: ApiPropertyOptions) =>
  applyDecorators(
    IsOptional(),
    IsArray({ message: m.array }),
    ArrayMaxSize(max, { message: m.count }),
    ...itemChecks,
    ArrayUnique({ message: m.unique }),
    ApiPropertyOptional(doc),
  );

/** latitude: optional, within the documented range; null as for end_date. */
export const Latitude = (description?: string) =>
  optionalInRange(
    IsNumber({}, { message: M.latitudeNumber }),
    L.latitude,
    M.latitudeRange,
    withDescription(orNull(F.latitude), description),
  );

/** longitude: optional, within the documented range; null as for end_date. */
export const Longitude = (description?: string) =>
  optionalInRange(
    IsNumber({}, { message: M.longitudeNumber }),
    L.longitude,
    M.longitudeRange,
    withDescription(orNull(F.longitude), description),
  );

/** external_id: optional text; null means not given on create and clears it on update. */
export const ExternalId = () =>
  applyDecorators(
    IsOptional(),
    IsString(MUST_BE_STRING),
    CharLength(0, L.externalId, M.externalIdLength),
    ApiPropertyOptional(orNull(F.external_id)),
  );

/** capture_types: distinct documented capture types. */
export const CaptureTypes = () =>
  optionalDistinctList(
    L.captureTypes,
    { array: M.captureTypesArray, count: M.captureTypesCount, unique: M.captureTypesUnique },
    [IsIn(CAPTURE_TYPES, { each: true, message: M.captureTypesValues })],
    orNull(F.capture_types),
  );

/** recurring_frequency: one of the documented frequencies. */
export const RecurringFrequency = () =>
  optionalChoice(RECURRING_FREQUENCIES, M.recurringFrequency, orNull(F.recurring_frequency));

/** recurring_interval: a whole number in the documented range. */
export const RecurringInterval = () =>
  optionalInRange(
    IsInt({ message: M.recurringInterval }),
    L.recurringInterval,
    M.recurringInterval,
    orNull(F.recurring_interval),
  );

/** selected_days_of_week: distinct days, 0 (Sunday) to 6. */
export const SelectedDaysOfWeek = () =>
  optionalDistinctList(
    L.selectedDaysOfWeek,
    { array: M.selectedDaysArray, count: M.selectedDaysCount, unique: M.selectedDaysUnique },
    [
      IsInt({ each: true, message: M.selectedDaysValues }),
      Min(0, { each: true, message: M.selectedDaysValues }),
      Max(6, { each: true, message: M.selectedDaysValues }),
    ],
    orNull(F.selected_days_of_week),
  );

/** week_of_month: one of the documented weeks. */
export const WeekOfMonth = () => optionalChoice(WEEKS_OF_MONTH, M.weekOfMonth, orNull(F.week_of_month));

/** weeks_of_month: distinct documented weeks. */
export const WeeksOfMonth = () =>
  optionalDistinctList(
    L.weeksOfMonth,
    { array: M.weeksOfMonthArray, count: M.weeksOfMonthCount, unique: M.weeksOfMonthUnique },
    [IsIn(WEEKS_OF_MONTH, { each: true, message: M.weeksOfMonthValues })],
    orNull(F.weeks_of_month),
  );

/** flights_per_occurrence: a whole number in the documented range. */
export const FlightsPerOccurrence = () =>
  optionalInRange(
    IsInt({ message: M.flightsPerOccurrence }),
    L.flightsPerOccurrence,
    M.flightsPerOccurrence,
    orNull(F.flights_per_occurrence),
  );

/** How the document describes `pilots` of assign and unassign. */
const PILOTS_FIELD = {
  type: [String],
  minItems: 1,
  maxItems: MAX_PILOTS_PER_REQUEST,
  description: 'User ids of pilots (from `GET /v1/team?role=pilot`); repeated ids count once',
  example: [EXAMPLE.userId],
} satisfies ApiPropertyOptions;

/**
 * pilots of assign and unassign: a non-empty array of at most MAX_PILOTS_PER_REQUEST non-empty
 * strings. `requiredMessage` is the request's own answer to missing, null, not an array and empty.
 */
export const Pilots = (requiredMessage: string) =>
  applyDecorators(
    IsArray({ message: requiredMessage }),
    ArrayNotEmpty({ message: requiredMessage }),
    ArrayMaxSize(MAX_PILOTS_PER_REQUEST, { message: ASSIGNMENT_MESSAGES.pilotsCount }),
    IsString({ each: true, message: ASSIGNMENT_MESSAGES.pilotIds }),
    IsNotEmpty({ each: true, message: ASSIGNMENT_MESSAGES.pilotIds }),
    ApiProperty(PILOTS_FIELD),
  );
