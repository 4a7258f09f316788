import { applyDecorators } from '@nestjs/common';
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
import { IsIsoDate, IsStringField, LengthBetween, OneOf, WhenPresent } from '../http/field-rules';
import { OtherStatusReason } from '../projects/create-project.dto';
import { JobRules } from './create-job.dto';

/**
 * PATCH /projects/{projectId}/jobs/{jobId} (spec 4.2): every field optional, only supplied ones
 * change. null clears exactly the fields the spec lists as nullable on update (end_date, the
 * coordinates, capture_types, external_id and the recurring fields); for the others null is
 * refused like any other wrong type. Fields in the order of the spec's update messages.
 */
export class UpdateJobDto {
  @applyDecorators(WhenPresent(), IsStringField('name'), LengthBetween(JOB_LIMITS.name.min, JOB_LIMITS.name.max, M.nameLength))
  name?: string = undefined;

  @applyDecorators(WhenPresent(), OneOf(STATUS_VALUES, STATUS_MESSAGE))
  status?: Status = undefined;

  @applyDecorators(WhenPresent(), OneOf(PRIORITIES, M.priority))
  priority?: Priority = undefined;

  @applyDecorators(WhenPresent(), IsIsoDate(M.startDateFormat))
  start_date?: string = undefined;

  @JobRules.endDate()
  end_date?: string | null = undefined;

  @JobRules.latitude()
  latitude?: number | null = undefined;

  @JobRules.longitude()
  longitude?: number | null = undefined;

  @OtherStatusReason()
  other_status_reason?: string = undefined;

  @applyDecorators(WhenPresent(), IsStringField('type'))
  type?: string = undefined;

  @applyDecorators(WhenPresent(), OneOf(JOB_PATTERNS, M.jobPattern))
  job_pattern?: JobPattern = undefined;

  @applyDecorators(WhenPresent(), IsStringField('description'), LengthBetween(0, JOB_LIMITS.description, M.descriptionLength))
  description?: string = undefined;

  @applyDecorators(
    WhenPresent(),
    IsStringField('inspection_notes'),
    LengthBetween(0, JOB_LIMITS.inspectionNotes, M.inspectionNotesLength),
  )
  inspection_notes?: string = undefined;

  @JobRules.externalId()
  external_id?: string | null = undefined;

  @JobRules.captureTypes()
  capture_types?: CaptureType[] | null = undefined;

  @JobRules.recurringFrequency()
  recurring_frequency?: RecurringFrequency | null = undefined;

  @JobRules.recurringInterval()
  recurring_interval?: number | null = undefined;

  @JobRules.selectedDaysOfWeek()
  selected_days_of_week?: number[] | null = undefined;

  @JobRules.weekOfMonth()
  week_of_month?: number | null = undefined;

  @JobRules.weeksOfMonth()
  weeks_of_month?: number[] | null = undefined;

  @JobRules.flightsPerOccurrence()
  flights_per_occurrence?: number | null = undefined;
}
