import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString } from 'class-validator';
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
import { IsIsoDate, MUST_BE_STRING } from '../../http/validators';
import { orNull } from '../../openapi/schemas/common.schema';
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

/**
 * POST /projects/{projectId}/jobs (docs/api.md, Jobs). Fields in the order of the API reference's
 * create messages (section 7), then the remaining fields in the order of the request body list:
 * the order their failures are reported in (http/validation.ts); each field's checks run
 * bottom-up (http/validators.ts). Per-field rules only: rules that relate fields (end after start,
 * coordinates together, no interval with flexible, the 6-month limit) and the job type lookup are
 * the decider's and the handler's. null means "not given" for every optional field.
 */
export class CreateJobDto {
  @ApiProperty(F.name)
  @NameChecks()
  @IsDefined({ message: M.nameRequired })
  name: string;

  @ApiProperty(F.type)
  @IsString(MUST_BE_STRING)
  @IsDefined({ message: M.typeRequired })
  type: string;

  @ApiProperty(F.job_pattern)
  @IsIn(JOB_PATTERNS, { message: M.jobPattern })
  job_pattern: JobPattern;

  @ApiProperty(F.start_date)
  @IsIsoDate(M.startDateFormat)
  @IsDefined({ message: M.startDateRequired })
  start_date: string;

  @EndDate()
  end_date?: string | null;

  @Latitude()
  latitude?: number | null;

  @Longitude()
  longitude?: number | null;

  @ApiPropertyOptional({ ...orNull(STATUS_FIELD), default: 'not_started' })
  @IsIn(STATUS_VALUES, { message: STATUS_MESSAGE })
  @IsOptional()
  status?: Status;

  @OtherStatusReason()
  other_status_reason?: string;

  @ExternalId()
  external_id?: string | null;

  @ApiPropertyOptional({ ...orNull(F.priority), default: 'medium' })
  @IsIn(PRIORITIES, { message: M.priority })
  @IsOptional()
  priority?: Priority;

  @ApiPropertyOptional(orNull(F.description))
  @DescriptionChecks()
  @IsOptional()
  description?: string | null;

  @ApiPropertyOptional(orNull(F.inspection_notes))
  @InspectionNotesChecks()
  @IsOptional()
  inspection_notes?: string | null;

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
