import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
} from 'class-validator';
import {
  CAPTURE_TYPES,
  CaptureType,
  JOB_LIMITS as L,
  JOB_MESSAGES as M,
  JOB_PATTERNS,
  JobPattern,
  OTHER_STATUS_REASON_LENGTH,
  OTHER_STATUS_REASON_LIMITS as REASON,
  OTHER_STATUS_REASON_REQUIRED,
  Priority,
  PRIORITIES,
  RECURRING_FREQUENCIES,
  RecurringFrequency,
  Status,
  STATUS_MESSAGE,
  STATUS_VALUES,
  WEEKS_OF_MONTH,
} from '@app/domain';
import { CharLength, IfStatusIsOtherOrGiven, IsIsoDate, MUST_BE_STRING } from '../../http/validators';
import { orNull } from '../../openapi/schemas/common.schema';
import { JOB_FIELD as F } from '../../openapi/schemas/jobs.schema';
import { STATUS_FIELD } from '../../openapi/schemas/projects.schema';

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
  @CharLength(L.name.min, L.name.max, M.nameLength)
  @IsString(MUST_BE_STRING)
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

  @ApiPropertyOptional(orNull(F.end_date))
  @IsIsoDate(M.endDateFormat)
  @IsOptional()
  end_date?: string | null;

  @ApiPropertyOptional(orNull(F.latitude))
  @Max(L.latitude.max, { message: M.latitudeRange })
  @Min(L.latitude.min, { message: M.latitudeRange })
  @IsNumber({}, { message: M.latitudeNumber })
  @IsOptional()
  latitude?: number | null;

  @ApiPropertyOptional(orNull(F.longitude))
  @Max(L.longitude.max, { message: M.longitudeRange })
  @Min(L.longitude.min, { message: M.longitudeRange })
  @IsNumber({}, { message: M.longitudeNumber })
  @IsOptional()
  longitude?: number | null;

  @ApiPropertyOptional({ ...orNull(STATUS_FIELD), default: 'not_started' })
  @IsIn(STATUS_VALUES, { message: STATUS_MESSAGE })
  @IsOptional()
  status?: Status;

  @ApiPropertyOptional(F.other_status_reason)
  @CharLength(REASON.min, REASON.max, OTHER_STATUS_REASON_LENGTH)
  @IsString(MUST_BE_STRING)
  @IsDefined({ message: OTHER_STATUS_REASON_REQUIRED })
  @IfStatusIsOtherOrGiven()
  other_status_reason?: string;

  @ApiPropertyOptional(orNull(F.external_id))
  @CharLength(0, L.externalId, M.externalIdLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  external_id?: string | null;

  @ApiPropertyOptional({ ...orNull(F.priority), default: 'medium' })
  @IsIn(PRIORITIES, { message: M.priority })
  @IsOptional()
  priority?: Priority;

  @ApiPropertyOptional(orNull(F.description))
  @CharLength(0, L.description, M.descriptionLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  description?: string | null;

  @ApiPropertyOptional(orNull(F.inspection_notes))
  @CharLength(0, L.inspectionNotes, M.inspectionNotesLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  inspection_notes?: string | null;

  @ApiPropertyOptional(orNull(F.capture_types))
  @ArrayUnique({ message: M.captureTypesUnique })
  @IsIn(CAPTURE_TYPES, { each: true, message: M.captureTypesValues })
  @ArrayMaxSize(L.captureTypes, { message: M.captureTypesCount })
  @IsArray({ message: M.captureTypesArray })
  @IsOptional()
  capture_types?: CaptureType[] | null;

  @ApiPropertyOptional(orNull(F.recurring_frequency))
  @IsIn(RECURRING_FREQUENCIES, { message: M.recurringFrequency })
  @IsOptional()
  recurring_frequency?: RecurringFrequency | null;

  @ApiPropertyOptional(orNull(F.recurring_interval))
  @Max(L.recurringInterval.max, { message: M.recurringInterval })
  @Min(L.recurringInterval.min, { message: M.recurringInterval })
  @IsInt({ message: M.recurringInterval })
  @IsOptional()
  recurring_interval?: number | null;

  @ApiPropertyOptional(orNull(F.selected_days_of_week))
  @ArrayUnique({ message: M.selectedDaysUnique })
  @Max(6, { each: true, message: M.selectedDaysValues })
  @Min(0, { each: true, message: M.selectedDaysValues })
  @IsInt({ each: true, message: M.selectedDaysValues })
  @ArrayMaxSize(L.selectedDaysOfWeek, { message: M.selectedDaysCount })
  @IsArray({ message: M.selectedDaysArray })
  @IsOptional()
  selected_days_of_week?: number[] | null;

  @ApiPropertyOptional(orNull(F.week_of_month))
  @IsIn(WEEKS_OF_MONTH, { message: M.weekOfMonth })
  @IsOptional()
  week_of_month?: number | null;

  @ApiPropertyOptional(orNull(F.weeks_of_month))
  @ArrayUnique({ message: M.weeksOfMonthUnique })
  @IsIn(WEEKS_OF_MONTH, { each: true, message: M.weeksOfMonthValues })
  @ArrayMaxSize(L.weeksOfMonth, { message: M.weeksOfMonthCount })
  @IsArray({ message: M.weeksOfMonthArray })
  @IsOptional()
  weeks_of_month?: number[] | null;

  @ApiPropertyOptional(orNull(F.flights_per_occurrence))
  @Max(L.flightsPerOccurrence.max, { message: M.flightsPerOccurrence })
  @Min(L.flightsPerOccurrence.min, { message: M.flightsPerOccurrence })
  @IsInt({ message: M.flightsPerOccurrence })
  @IsOptional()
  flights_per_occurrence?: number | null;
}
