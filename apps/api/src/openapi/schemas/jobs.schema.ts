import { ApiProperty, ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import type {
  AssignPilotsResult,
  JobList,
  OccurrenceItem,
  OccurrenceList,
  UnassignPilotsResult,
} from '@app/application';
import {
  CAPTURE_TYPES,
  CaptureType,
  JOB_LIMITS,
  JOB_PATTERNS,
  JobPattern,
  JobView,
  MAX_PILOTS_PER_REQUEST,
  PRIORITIES,
  Priority,
  RECURRING_FREQUENCIES,
  RecurringFrequency,
  Status,
  WEEKS_OF_MONTH,
} from '@app/domain';
import { EXAMPLE, Millis, NextCursor, orNull, PageCount } from './common.schema';
import { PROJECT_FIELD, StatusProperty } from './projects.schema';

const RECURRING_ONLY = 'Applies only when `job_pattern` is `recurring`; changing it regenerates the occurrences.';

/**
 * How the document describes each job field (docs/api.md, Jobs and Limits); the request DTOs use the same
 * entries, adding `nullable` where a request may send null.
 */
export const JOB_FIELD = {
  name: {
    type: String,
    minLength: JOB_LIMITS.name.min,
    maxLength: JOB_LIMITS.name.max,
    example: 'Blade inspection T-07',
  },
  description: {
    type: String,
    maxLength: JOB_LIMITS.description,
    example: 'Leading-edge erosion check on all three blades',
  },
  type: {
    type: String,
    description:
      'A job type id: a predefined one (e.g. `drone_inspection`, `wind_turbine`) or a custom type of the workspace',
    example: 'wind_turbine',
  },
  priority: { enum: [...PRIORITIES], example: 'medium' },
  job_pattern: { enum: [...JOB_PATTERNS], example: 'recurring' },
  start_date: {
    type: String,
    format: 'date',
    description: `ISO 8601 date (YYYY-MM-DD); not more than ${JOB_LIMITS.startDateMonthsInPast} months in the past`,
    example: '2028-03-01',
  },
  end_date: {
    type: String,
    format: 'date',
    description: 'ISO 8601 date, on or after start_date',
    example: '2028-12-31',
  },
  latitude: {
    type: Number,
    minimum: JOB_LIMITS.latitude.min,
    maximum: JOB_LIMITS.latitude.max,
    description: 'Only together with longitude',
    example: 55.6761,
  },
  longitude: {
    type: Number,
    minimum: JOB_LIMITS.longitude.min,
    maximum: JOB_LIMITS.longitude.max,
    description: 'Only together with latitude',
    example: 12.5683,
  },
  inspection_notes: { type: String, maxLength: JOB_LIMITS.inspectionNotes, example: 'Check the lightning receptors' },
  capture_types: {
    enum: [...CAPTURE_TYPES],
    enumName: 'CaptureType',
    isArray: true,
    maxItems: JOB_LIMITS.captureTypes,
    uniqueItems: true,
    example: ['drone_inspection', 'thermal_inspection'],
  },
  external_id: {
    type: String,
    maxLength: JOB_LIMITS.externalId,
    description: "The caller's own identifier",
    example: 'WO-88231',
  },
  recurring_frequency: { enum: [...RECURRING_FREQUENCIES], description: RECURRING_ONLY, example: 'weekly' },
  recurring_interval: {
    type: 'integer',
    minimum: JOB_LIMITS.recurringInterval.min,
    maximum: JOB_LIMITS.recurringInterval.max,
    description: `Every n-th day, week, month or year; not with frequency \`flexible\`. ${RECURRING_ONLY}`,
    example: 2,
  },
  selected_days_of_week: {
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: 6 },
    maxItems: JOB_LIMITS.selectedDaysOfWeek,
    uniqueItems: true,
    description: `0 = Sunday ... 6 = Saturday. ${RECURRING_ONLY}`,
    example: [1, 4],
  },
  week_of_month: {
    type: 'integer',
    enum: [...WEEKS_OF_MONTH],
    description: `-1 = the last week. ${RECURRING_ONLY}`,
    example: 1,
  },
  weeks_of_month: {
    type: 'array',
    items: { type: 'integer', enum: [...WEEKS_OF_MONTH] },
    maxItems: JOB_LIMITS.weeksOfMonth,
    uniqueItems: true,
    description: `-1 = the last week. ${RECURRING_ONLY}`,
    example: [1, 3],
  },
  flights_per_occurrence: {
    type: 'integer',
    minimum: JOB_LIMITS.flightsPerOccurrence.min,
    maximum: JOB_LIMITS.flightsPerOccurrence.max,
    description: RECURRING_ONLY,
    example: 2,
  },
  other_status_reason: PROJECT_FIELD.other_status_reason,
} satisfies Record<string, ApiPropertyOptions>;

@ApiSchema({ name: 'Job', description: 'A task inside a project, one-time or recurring (docs/api.md, Jobs).' })
export class JobSchema implements JobView {
  @ApiProperty({ example: EXAMPLE.jobId })
  id!: string;

  @ApiProperty(JOB_FIELD.name)
  name!: string;

  @ApiProperty(orNull(JOB_FIELD.description))
  description!: string | null;

  @ApiProperty(JOB_FIELD.type)
  type!: string;

  @StatusProperty({ example: 'not_started' })
  status!: Status;

  @ApiProperty(JOB_FIELD.priority)
  priority!: Priority;

  @ApiProperty(JOB_FIELD.job_pattern)
  job_pattern!: JobPattern;

  @ApiProperty({ ...JOB_FIELD.start_date, description: 'ISO 8601 date (YYYY-MM-DD)' })
  start_date!: string;

  @ApiProperty(orNull(JOB_FIELD.end_date))
  end_date!: string | null;

  @ApiProperty(orNull(JOB_FIELD.latitude))
  latitude!: number | null;

  @ApiProperty(orNull(JOB_FIELD.longitude))
  longitude!: number | null;

  @ApiProperty({ example: EXAMPLE.projectId, description: 'The owning project' })
  project_id!: string;

  @ApiProperty(orNull(JOB_FIELD.inspection_notes))
  inspection_notes!: string | null;

  @ApiProperty(orNull(JOB_FIELD.capture_types))
  capture_types!: CaptureType[] | null;

  @ApiProperty(orNull(JOB_FIELD.external_id))
  external_id!: string | null;

  @Millis()
  created!: number;

  @Millis()
  updated!: number;

  @ApiProperty(orNull(JOB_FIELD.recurring_frequency))
  recurring_frequency!: RecurringFrequency | null;

  @ApiProperty(orNull(JOB_FIELD.recurring_interval))
  recurring_interval!: number | null;

  @ApiProperty(orNull(JOB_FIELD.selected_days_of_week))
  selected_days_of_week!: number[] | null;

  @ApiProperty(orNull(JOB_FIELD.week_of_month))
  week_of_month!: number | null;

  @ApiProperty(orNull(JOB_FIELD.weeks_of_month))
  weeks_of_month!: number[] | null;

  @ApiProperty(orNull(JOB_FIELD.flights_per_occurrence))
  flights_per_occurrence!: number | null;
}

@ApiSchema({ name: 'JobList', description: 'A page of the jobs of a project.' })
export class JobListSchema implements JobList {
  @ApiProperty({ type: () => [JobSchema] })
  jobs!: JobView[];

  @PageCount()
  count!: number;

  @NextCursor()
  cursor!: string | null;

  @ApiProperty({ example: EXAMPLE.projectId })
  project_id!: string;
}

@ApiSchema({ name: 'Occurrence', description: 'One occurrence of a job (derived from its schedule; docs/jobs.md).' })
export class OccurrenceSchema implements OccurrenceItem {
  @ApiProperty({ format: 'date', example: '2028-03-02' })
  date!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  flights!: number;

  @ApiProperty({
    type: [String],
    description: "The job's pilots: assignments apply to every occurrence",
    example: [EXAMPLE.userId],
  })
  assigned_pilot_ids!: string[];
}

@ApiSchema({ name: 'OccurrenceList', description: 'A page of the occurrences of a job, by date.' })
export class OccurrenceListSchema implements OccurrenceList {
  @ApiProperty({ type: () => [OccurrenceSchema] })
  occurrences!: OccurrenceItem[];

  @PageCount()
  count!: number;

  @NextCursor()
  cursor!: string | null;

  @ApiProperty({ example: EXAMPLE.jobId })
  job_id!: string;

  @ApiProperty({ example: EXAMPLE.projectId })
  project_id!: string;
}

@ApiSchema({ name: 'AssignmentCounts', description: 'Assignment records (pilot × occurrence).' })
export class AssignmentCountsSchema {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Newly assigned pilots × occurrences', example: 12 })
  successful!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Assignments that already existed', example: 6 })
  skipped!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Always 0: a failing request fails as a whole', example: 0 })
  failed!: number;
}

@ApiSchema({ name: 'AssignPilotsResult', description: 'Outcome of POST .../assign (docs/api.md, Jobs).' })
export class AssignPilotsResultSchema implements AssignPilotsResult {
  @ApiProperty({ example: 'Pilots assigned successfully' })
  message!: string;

  @ApiProperty({ type: () => AssignmentCountsSchema })
  results!: AssignmentCountsSchema;

  @ApiProperty({ type: [String], description: 'Pilots newly assigned', example: [EXAMPLE.userId] })
  pilots_assigned!: string[];

  @ApiProperty({ type: [String], description: 'Pilots already assigned', example: [] })
  pilots_skipped!: string[];

  @ApiProperty({ type: 'integer', minimum: 0, description: "The job's current number of occurrences", example: 12 })
  occurrences_per_pilot!: number;
}

@ApiSchema({ name: 'UnassignPilotsResult', description: 'Outcome of POST .../unassign (docs/api.md, Jobs).' })
export class UnassignPilotsResultSchema implements UnassignPilotsResult {
  @ApiProperty({ example: 'Pilots unassigned successfully' })
  message!: string;

  @ApiProperty({ type: [String], description: 'Pilots that had an assignment', example: [EXAMPLE.userId] })
  pilots_removed!: string[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Records removed (pilots × occurrences)', example: 12 })
  assignments_removed!: number;
}

/** `pilots` of assign / unassign. */
export const PILOTS_FIELD = {
  type: [String],
  minItems: 1,
  maxItems: MAX_PILOTS_PER_REQUEST,
  description: 'User ids of pilots (from `GET /v1/team?role=pilot`); repeated ids count once',
  example: [EXAMPLE.userId],
} satisfies ApiPropertyOptions;
