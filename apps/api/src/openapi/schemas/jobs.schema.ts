import { ApiPropertyOptions } from '@nestjs/swagger';
import type {
  AssignPilotsResult,
  JobList,
  OccurrenceItem,
  OccurrenceList,
  UnassignPilotsResult,
} from '@app/application';
import {
  CAPTURE_TYPES,
  JOB_ANSWERS,
  JOB_LIMITS,
  JOB_PATTERNS,
  JobView,
  PRIORITIES,
  RECURRING_FREQUENCIES,
  WEEKS_OF_MONTH,
} from '@app/domain';
import { EXAMPLE, millis, NEXT_CURSOR, orNull, PAGE_COUNT } from './common.schema';
import { PROJECT_FIELD, statusField } from './projects.schema';
import { schemaOf } from './schema-table';

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

export const JobSchema = schemaOf<JobView>(
  { name: 'Job', description: 'A task inside a project, one-time or recurring (docs/api.md, Jobs).' },
  {
    id: { example: EXAMPLE.jobId },
    name: JOB_FIELD.name,
    description: orNull(JOB_FIELD.description),
    type: JOB_FIELD.type,
    status: statusField({ example: 'not_started' }),
    priority: JOB_FIELD.priority,
    job_pattern: JOB_FIELD.job_pattern,
    start_date: { ...JOB_FIELD.start_date, description: 'ISO 8601 date (YYYY-MM-DD)' },
    end_date: orNull(JOB_FIELD.end_date),
    latitude: orNull(JOB_FIELD.latitude),
    longitude: orNull(JOB_FIELD.longitude),
    project_id: { example: EXAMPLE.projectId, description: 'The owning project' },
    inspection_notes: orNull(JOB_FIELD.inspection_notes),
    capture_types: orNull(JOB_FIELD.capture_types),
    external_id: orNull(JOB_FIELD.external_id),
    created: millis(),
    updated: millis(),
    recurring_frequency: orNull(JOB_FIELD.recurring_frequency),
    recurring_interval: orNull(JOB_FIELD.recurring_interval),
    selected_days_of_week: orNull(JOB_FIELD.selected_days_of_week),
    week_of_month: orNull(JOB_FIELD.week_of_month),
    weeks_of_month: orNull(JOB_FIELD.weeks_of_month),
    flights_per_occurrence: orNull(JOB_FIELD.flights_per_occurrence),
  },
);

export const JobListSchema = schemaOf<JobList>(
  { name: 'JobList', description: 'A page of the jobs of a project.' },
  {
    jobs: { type: () => [JobSchema] },
    count: PAGE_COUNT,
    cursor: NEXT_CURSOR,
    project_id: { example: EXAMPLE.projectId },
  },
);

export const OccurrenceSchema = schemaOf<OccurrenceItem>(
  { name: 'Occurrence', description: 'One occurrence of a job (derived from its schedule; docs/jobs.md).' },
  {
    date: { format: 'date', example: '2028-03-02' },
    flights: { type: 'integer', minimum: 1, example: 1 },
    assigned_pilot_ids: {
      type: [String],
      description: "The job's pilots: assignments apply to every occurrence",
      example: [EXAMPLE.userId],
    },
  },
);

export const OccurrenceListSchema = schemaOf<OccurrenceList>(
  { name: 'OccurrenceList', description: 'A page of the occurrences of a job, by date.' },
  {
    occurrences: { type: () => [OccurrenceSchema] },
    count: PAGE_COUNT,
    cursor: NEXT_CURSOR,
    job_id: { example: EXAMPLE.jobId },
    project_id: { example: EXAMPLE.projectId },
  },
);

const records = (description: string, example: number) =>
  ({ type: 'integer', minimum: 0, description, example }) as const;

export const AssignmentCountsSchema = schemaOf<AssignPilotsResult['results']>(
  { name: 'AssignmentCounts', description: 'Assignment records (pilot × occurrence).' },
  {
    successful: records('Newly assigned pilots × occurrences', 12),
    skipped: records('Assignments that already existed', 6),
    failed: records('Always 0: a failing request fails as a whole', 0),
  },
);

export const AssignPilotsResultSchema = schemaOf<AssignPilotsResult>(
  { name: 'AssignPilotsResult', description: 'Outcome of POST .../assign (docs/api.md, Jobs).' },
  {
    message: { example: JOB_ANSWERS.pilotsAssigned },
    results: { type: () => AssignmentCountsSchema },
    pilots_assigned: { type: [String], description: 'Pilots newly assigned', example: [EXAMPLE.userId] },
    pilots_skipped: { type: [String], description: 'Pilots already assigned', example: [] },
    occurrences_per_pilot: records("The job's current number of occurrences", 12),
  },
);

export const UnassignPilotsResultSchema = schemaOf<UnassignPilotsResult>(
  { name: 'UnassignPilotsResult', description: 'Outcome of POST .../unassign (docs/api.md, Jobs).' },
  {
    message: { example: JOB_ANSWERS.pilotsUnassigned },
    pilots_removed: { type: [String], description: 'Pilots that had an assignment', example: [EXAMPLE.userId] },
    assignments_removed: records('Records removed (pilots × occurrences)', 12),
  },
);
