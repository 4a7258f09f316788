import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  CaptureType,
  JOB_LIMITS,
  JOB_MESSAGES as M,
  JOB_PATTERNS,
  JobPattern,
  PRIORITIES,
  Priority,
  RecurringFrequency,
  STATUS_MESSAGE,
  STATUS_VALUES,
  Status,
} from '@app/domain';
import { IsIsoDate, IsStringField, LengthBetween, OneOf, WhenPresent } from '../../http/field-rules';
import { OtherStatusReason } from '../../projects/create-project/create-project.dto';
import { orNull } from '../../openapi/schemas/common.schema';
import { JOB_FIELD as F } from '../../openapi/schemas/jobs.schema';
import { STATUS_FIELD } from '../../openapi/schemas/projects.schema';
import { JobRules } from '../create-job/create-job.dto';

/**
 * PATCH /projects/{projectId}/jobs/{jobId} (docs/api.md, Jobs): every field optional, only supplied ones
 * change. null clears exactly the fields the API reference lists as nullable on update (end_date, the
 * coordinates, capture_types, external_id and the recurring fields); for the others null is
 * refused like any other wrong type. Fields in the order of the API reference's update messages.
 */
export class UpdateJobDto {
  @ApiPropertyOptional(F.name)
  @applyDecorators(
    WhenPresent(),
    IsStringField('name'),
    LengthBetween(JOB_LIMITS.name.min, JOB_LIMITS.name.max, M.nameLength),
  )
  name?: string = undefined;

  @ApiPropertyOptional(STATUS_FIELD)
  @applyDecorators(WhenPresent(), OneOf(STATUS_VALUES, STATUS_MESSAGE))
  status?: Status = undefined;

  @ApiPropertyOptional(F.priority)
  @applyDecorators(WhenPresent(), OneOf(PRIORITIES, M.priority))
  priority?: Priority = undefined;

  @ApiPropertyOptional({ ...F.start_date, description: `${F.start_date.description}; checked only when it changes` })
  @applyDecorators(WhenPresent(), IsIsoDate(M.startDateFormat))
  start_date?: string = undefined;

  @ApiPropertyOptional({ ...orNull(F.end_date), description: 'ISO 8601 date, on or after start_date; null clears it' })
  @JobRules.endDate()
  end_date?: string | null = undefined;

  @ApiPropertyOptional({ ...orNull(F.latitude), description: 'null clears it, together with longitude' })
  @JobRules.latitude()
  latitude?: number | null = undefined;

  @ApiPropertyOptional({ ...orNull(F.longitude), description: 'null clears it, together with latitude' })
  @JobRules.longitude()
  longitude?: number | null = undefined;

  @ApiPropertyOptional(F.other_status_reason)
  @OtherStatusReason()
  other_status_reason?: string = undefined;

  @ApiPropertyOptional({ ...F.type, description: `${F.type.description}; checked only when it changes` })
  @applyDecorators(WhenPresent(), IsStringField('type'))
  type?: string = undefined;

  @ApiPropertyOptional(F.job_pattern)
  @applyDecorators(WhenPresent(), OneOf(JOB_PATTERNS, M.jobPattern))
  job_pattern?: JobPattern = undefined;

  @ApiPropertyOptional({ ...F.description, description: 'Send "" to empty it (null is refused)' })
  @applyDecorators(
    WhenPresent(),
    IsStringField('description'),
    LengthBetween(0, JOB_LIMITS.description, M.descriptionLength),
  )
  description?: string = undefined;

  @ApiPropertyOptional({ ...F.inspection_notes, description: 'Send "" to empty it (null is refused)' })
  @applyDecorators(
    WhenPresent(),
    IsStringField('inspection_notes'),
    LengthBetween(0, JOB_LIMITS.inspectionNotes, M.inspectionNotesLength),
  )
  inspection_notes?: string = undefined;

  @ApiPropertyOptional(orNull(F.external_id))
  @JobRules.externalId()
  external_id?: string | null = undefined;

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
