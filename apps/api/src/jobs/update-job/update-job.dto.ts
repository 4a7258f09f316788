import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import {
  CaptureType,
  JOB_MESSAGES as M,
  JOB_PATTERNS,
  JobPattern,
  Priority,
  PRIORITIES,
  RecurringFrequency as RecurringFrequencyValue,
  Status,
  STATUS_MESSAGE,
  STATUS_VALUES,
} from '@app/domain';
import { IsIsoDate, IsOmittable, MUST_BE_STRING } from '../../http/validators';
import { JOB_FIELD as F } from '../../openapi/schemas/jobs.schema';
import { STATUS_FIELD } from '../../openapi/schemas/projects.schema';
import { OtherStatusReason } from '../../projects/project-fields';
import {
  CaptureTypes,
  DescriptionChecks,
  EndDate,
  ExternalId,
  FlightsPerOccurrence,
  InspectionNotesChecks,
  Latitude,
  Longitude,
  NameChecks,
  RecurringFrequency,
  RecurringInterval,
  SelectedDaysOfWeek,
  WeekOfMonth,
  WeeksOfMonth,
} from '../job-fields';

const EMPTIED_NOT_NULLED = 'Send "" to empty it (null is refused)';
const checkedOnChange = (doc: { description: string }) => `${doc.description}; checked only when it changes`;

/**
 * PATCH /projects/{projectId}/jobs/{jobId} (docs/api.md, Jobs): every field optional, only supplied
 * ones change. null clears exactly the fields the API reference lists as nullable on update
 * (end_date, the coordinates, capture_types, external_id and the recurring fields); for the others
 * null is refused like any other wrong type. Fields in the order of the API reference's update
 * messages (the order failures are reported in); each field's checks run bottom-up
 * (http/validators.ts).
 */
export class UpdateJobDto {
  @ApiPropertyOptional(F.name)
  @NameChecks()
  @IsOmittable()
  name?: string;

  @ApiPropertyOptional(STATUS_FIELD)
  @IsIn(STATUS_VALUES, { message: STATUS_MESSAGE })
  @IsOmittable()
  status?: Status;

  @ApiPropertyOptional(F.priority)
  @IsIn(PRIORITIES, { message: M.priority })
  @IsOmittable()
  priority?: Priority;

  @ApiPropertyOptional({ ...F.start_date, description: checkedOnChange(F.start_date) })
  @IsIsoDate(M.startDateFormat)
  @IsOmittable()
  start_date?: string;

  @EndDate('ISO 8601 date, on or after start_date; null clears it')
  end_date?: string | null;

  @Latitude('null clears it, together with longitude')
  latitude?: number | null;

  @Longitude('null clears it, together with latitude')
  longitude?: number | null;

  @OtherStatusReason()
  other_status_reason?: string;

  @ApiPropertyOptional({ ...F.type, description: checkedOnChange(F.type) })
  @IsString(MUST_BE_STRING)
  @IsOmittable()
  type?: string;

  @ApiPropertyOptional(F.job_pattern)
  @IsIn(JOB_PATTERNS, { message: M.jobPattern })
  @IsOmittable()
  job_pattern?: JobPattern;

  @ApiPropertyOptional({ ...F.description, description: EMPTIED_NOT_NULLED })
  @DescriptionChecks()
  @IsOmittable()
  description?: string;

  @ApiPropertyOptional({ ...F.inspection_notes, description: EMPTIED_NOT_NULLED })
  @InspectionNotesChecks()
  @IsOmittable()
  inspection_notes?: string;

  @ExternalId()
  external_id?: string | null;

  @CaptureTypes()
  capture_types?: CaptureType[] | null;

  @RecurringFrequency()
  recurring_frequency?: RecurringFrequencyValue | null;

  @RecurringInterval()
  recurring_interval?: number | null;

  @SelectedDaysOfWeek()
  selected_days_of_week?: number[] | null;

  @WeekOfMonth()
  week_of_month?: number | null;

  @WeeksOfMonth()
  weeks_of_month?: number[] | null;

  @FlightsPerOccurrence()
  flights_per_occurrence?: number | null;
}
