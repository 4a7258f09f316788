import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CAPTURE_TYPES,
  CaptureType,
  JOB_LIMITS,
  JOB_MESSAGES as M,
  JOB_PATTERNS,
  JobPattern,
  PRIORITIES,
  Priority,
  RECURRING_FREQUENCIES,
  RecurringFrequency,
  STATUS_MESSAGE,
  STATUS_VALUES,
  Status,
  WEEKS_OF_MONTH,
} from '@app/domain';
import {
  IsIntegerInRange,
  IsIsoDate,
  IsStringField,
  OneOf,
  OptionalString,
  Required,
  RequiredString,
  WhenSet,
} from '../../http/field-rules';
import { OtherStatusReason } from '../../projects/create-project/create-project.dto';
import { orNull } from '../../openapi/schemas/common.schema';
import { JOB_FIELD as F } from '../../openapi/schemas/jobs.schema';
import { STATUS_FIELD } from '../../openapi/schemas/projects.schema';
import { ListOf, NumberBetween } from '../job-field-rules';

/** Rules shared by create and update; each validates only when the field is set (not absent, not null). */
export const JobRules = {
  endDate: () => applyDecorators(WhenSet(), IsIsoDate(M.endDateFormat)),
  latitude: () =>
    applyDecorators(
      WhenSet(),
      NumberBetween(JOB_LIMITS.latitude.min, JOB_LIMITS.latitude.max, M.latitudeNumber, M.latitudeRange),
    ),
  longitude: () =>
    applyDecorators(
      WhenSet(),
      NumberBetween(JOB_LIMITS.longitude.min, JOB_LIMITS.longitude.max, M.longitudeNumber, M.longitudeRange),
    ),
  externalId: () => OptionalString('external_id', JOB_LIMITS.externalId, M.externalIdLength),
  captureTypes: () =>
    applyDecorators(
      WhenSet(),
      ListOf({
        allows: (v) => (CAPTURE_TYPES as readonly unknown[]).includes(v),
        maxItems: JOB_LIMITS.captureTypes,
        messages: {
          array: M.captureTypesArray,
          count: M.captureTypesCount,
          values: M.captureTypesValues,
          unique: M.captureTypesUnique,
        },
      }),
    ),
  recurringFrequency: () => applyDecorators(WhenSet(), OneOf(RECURRING_FREQUENCIES, M.recurringFrequency)),
  recurringInterval: () =>
    applyDecorators(
      WhenSet(),
      IsIntegerInRange(JOB_LIMITS.recurringInterval.min, JOB_LIMITS.recurringInterval.max, M.recurringInterval),
    ),
  selectedDaysOfWeek: () =>
    applyDecorators(
      WhenSet(),
      ListOf({
        allows: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 6,
        maxItems: JOB_LIMITS.selectedDaysOfWeek,
        messages: {
          array: M.selectedDaysArray,
          count: M.selectedDaysCount,
          values: M.selectedDaysValues,
          unique: M.selectedDaysUnique,
        },
      }),
    ),
  weekOfMonth: () => applyDecorators(WhenSet(), OneOf(WEEKS_OF_MONTH, M.weekOfMonth)),
  weeksOfMonth: () =>
    applyDecorators(
      WhenSet(),
      ListOf({
        allows: (v) => (WEEKS_OF_MONTH as readonly unknown[]).includes(v),
        maxItems: JOB_LIMITS.weeksOfMonth,
        messages: {
          array: M.weeksOfMonthArray,
          count: M.weeksOfMonthCount,
          values: M.weeksOfMonthValues,
          unique: M.weeksOfMonthUnique,
        },
      }),
    ),
  flightsPerOccurrence: () =>
    applyDecorators(
      WhenSet(),
      IsIntegerInRange(
        JOB_LIMITS.flightsPerOccurrence.min,
        JOB_LIMITS.flightsPerOccurrence.max,
        M.flightsPerOccurrence,
      ),
    ),
};

/**
 * POST /projects/{projectId}/jobs (docs/api.md, Jobs). Fields in the order of the API reference's create messages
 * (section 7), then the remaining fields in the order of the request body list. Per-field rules
 * only: rules that relate fields (end after start, coordinates together, no interval with
 * flexible, the 6-month limit) and the job type lookup are the decider's and the handler's.
 * On create, null means "not given" for every optional field.
 */
export class CreateJobDto {
  @ApiProperty(F.name)
  @RequiredString('name', JOB_LIMITS.name.min, JOB_LIMITS.name.max, M.nameLength)
  name: string = undefined as never;

  @ApiProperty(F.type)
  @applyDecorators(Required(M.typeRequired), IsStringField('type'))
  type: string = undefined as never;

  @ApiProperty(F.job_pattern)
  @OneOf(JOB_PATTERNS, M.jobPattern)
  job_pattern: JobPattern = undefined as never;

  @ApiProperty(F.start_date)
  @applyDecorators(Required(M.startDateRequired), IsIsoDate(M.startDateFormat))
  start_date: string = undefined as never;

  @ApiPropertyOptional(orNull(F.end_date))
  @JobRules.endDate()
  end_date?: string | null = undefined;

  @ApiPropertyOptional(orNull(F.latitude))
  @JobRules.latitude()
  latitude?: number | null = undefined;

  @ApiPropertyOptional(orNull(F.longitude))
  @JobRules.longitude()
  longitude?: number | null = undefined;

  @ApiPropertyOptional({ ...orNull(STATUS_FIELD), default: 'not_started' })
  @applyDecorators(WhenSet(), OneOf(STATUS_VALUES, STATUS_MESSAGE))
  status?: Status = undefined;

  @ApiPropertyOptional(F.other_status_reason)
  @OtherStatusReason()
  other_status_reason?: string = undefined;

  @ApiPropertyOptional(orNull(F.external_id))
  @JobRules.externalId()
  external_id?: string | null = undefined;

  @ApiPropertyOptional({ ...orNull(F.priority), default: 'medium' })
  @applyDecorators(WhenSet(), OneOf(PRIORITIES, M.priority))
  priority?: Priority = undefined;

  @ApiPropertyOptional(orNull(F.description))
  @OptionalString('description', JOB_LIMITS.description, M.descriptionLength)
  description?: string | null = undefined;

  @ApiPropertyOptional(orNull(F.inspection_notes))
  @OptionalString('inspection_notes', JOB_LIMITS.inspectionNotes, M.inspectionNotesLength)
  inspection_notes?: string | null = undefined;

  @ApiPropertyOptional(orNull(F.capture_types))
  @JobRules.captureTypes()
  capture_types?: CaptureType[] | null = undefined;

  @ApiPropertyOptional(orNull(F.recurring_frequency))
  @JobRules.recurringFrequency()
  recurring_frequency?: RecurringFrequency | null = undefined;

  @ApiPropertyOptional(orNull(F.recurring_interval))
  @JobRules.recurringInterval()
  recurring_interval?: number | null = undefined;

  @ApiPropertyOptional(orNull(F.selected_days_of_week))
  @JobRules.selectedDaysOfWeek()
  selected_days_of_week?: number[] | null = undefined;

  @ApiPropertyOptional(orNull(F.week_of_month))
  @JobRules.weekOfMonth()
  week_of_month?: number | null = undefined;

  @ApiPropertyOptional(orNull(F.weeks_of_month))
  @JobRules.weeksOfMonth()
  weeks_of_month?: number[] | null = undefined;

  @ApiPropertyOptional(orNull(F.flights_per_occurrence))
  @JobRules.flightsPerOccurrence()
  flights_per_occurrence?: number | null = undefined;
}
