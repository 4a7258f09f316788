import { ApiPropertyOptional } from '@nestjs/swagger';
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
import { CharLength, IfStatusIsOtherOrGiven, IsIsoDate, IsOmittable, MUST_BE_STRING } from '../../http/validators';
import { orNull } from '../../openapi/schemas/common.schema';
import { JOB_FIELD as F } from '../../openapi/schemas/jobs.schema';
import { STATUS_FIELD } from '../../openapi/schemas/projects.schema';

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
  @CharLength(L.name.min, L.name.max, M.nameLength)
  @IsString(MUST_BE_STRING)
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

  @ApiPropertyOptional({ ...orNull(F.end_date), description: 'ISO 8601 date, on or after start_date; null clears it' })
  @IsIsoDate(M.endDateFormat)
  @IsOptional()
  end_date?: string | null;

  @ApiPropertyOptional({ ...orNull(F.latitude), description: 'null clears it, together with longitude' })
  @Max(L.latitude.max, { message: M.latitudeRange })
  @Min(L.latitude.min, { message: M.latitudeRange })
  @IsNumber({}, { message: M.latitudeNumber })
  @IsOptional()
  latitude?: number | null;

  @ApiPropertyOptional({ ...orNull(F.longitude), description: 'null clears it, together with latitude' })
  @Max(L.longitude.max, { message: M.longitudeRange })
  @Min(L.longitude.min, { message: M.longitudeRange })
  @IsNumber({}, { message: M.longitudeNumber })
  @IsOptional()
  longitude?: number | null;

  @ApiPropertyOptional(F.other_status_reason)
  @CharLength(REASON.min, REASON.max, OTHER_STATUS_REASON_LENGTH)
  @IsString(MUST_BE_STRING)
  @IsDefined({ message: OTHER_STATUS_REASON_REQUIRED })
  @IfStatusIsOtherOrGiven()
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
  @CharLength(0, L.description, M.descriptionLength)
  @IsString(MUST_BE_STRING)
  @IsOmittable()
  description?: string;

  @ApiPropertyOptional({ ...F.inspection_notes, description: EMPTIED_NOT_NULLED })
  @CharLength(0, L.inspectionNotes, M.inspectionNotesLength)
  @IsString(MUST_BE_STRING)
  @IsOmittable()
  inspection_notes?: string;

  @ApiPropertyOptional(orNull(F.external_id))
  @CharLength(0, L.externalId, M.externalIdLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  external_id?: string | null;

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
