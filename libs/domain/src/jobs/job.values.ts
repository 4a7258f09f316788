import { COMMON_MESSAGES, EXTERNAL_ID_MAX_LENGTH, NAME_LIMITS } from '../shared/common.values';
import { JobPattern, RecurringFrequency } from './occurrence-schedule';

/**
 * Value sets, bounds and messages of the job resource (docs/api.md, Jobs, 7, 8). The HTTP DTOs and the job
 * decider both use these, so a message is spelled once. Messages the API reference lists are quoted to the
 * letter; the others follow its pattern (`<field> <reason>`) and are listed in docs/jobs.md.
 */

export const PRIORITIES = ['low', 'medium', 'high'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const JOB_PATTERNS = ['one_time', 'recurring'] as const satisfies readonly JobPattern[];
export const RECURRING_FREQUENCIES = [
  'daily',
  'weekly',
  'monthly',
  'yearly',
  'flexible',
] as const satisfies readonly RecurringFrequency[];

export const CAPTURE_TYPES = [
  'drone_inspection',
  'thermal_inspection',
  'video_capture',
  '3d_mapping',
  'lidar_scan',
  'orthomosaic',
  'ground_smartphone',
  'ground_360',
  'panorama',
] as const;
export type CaptureType = (typeof CAPTURE_TYPES)[number];

/** -1 is "the last week of the month". */
export const WEEKS_OF_MONTH = [1, 2, 3, 4, -1] as const;

export const JOB_LIMITS = {
  name: NAME_LIMITS,
  description: 1000,
  inspectionNotes: 2000,
  externalId: EXTERNAL_ID_MAX_LENGTH,
  latitude: { min: -90, max: 90 },
  longitude: { min: -180, max: 180 },
  captureTypes: 20,
  recurringInterval: { min: 1, max: 365 },
  selectedDaysOfWeek: 7,
  weeksOfMonth: 5,
  flightsPerOccurrence: { min: 1, max: 10 },
  /** start_date may lie at most this many calendar months before today (docs/api.md, Limits). */
  startDateMonthsInPast: 6,
} as const;

export const JOB_NOT_FOUND = 'Job not found';

/** The API reference's answers to a successful change (docs/api.md, Jobs). */
export const JOB_ANSWERS = {
  updated: 'Job updated successfully',
  pilotsAssigned: 'Pilots assigned successfully',
  pilotsUnassigned: 'Pilots unassigned successfully',
} as const;

/** Spec 7, jobs create. */
export const JOB_MESSAGES = {
  nameRequired: COMMON_MESSAGES.nameRequired,
  nameLength: COMMON_MESSAGES.nameLength,
  typeRequired: 'type is required',
  jobPattern: 'job_pattern must be one_time or recurring',
  startDateRequired: COMMON_MESSAGES.startDateRequired,
  startDateFormat: COMMON_MESSAGES.startDateFormat,
  endDateOnOrAfterStart: 'end_date must be on or after start_date',
  latitudeRange: 'latitude must be between -90 and 90',
  longitudeRange: 'longitude must be between -180 and 180',
  coordinatesTogether: 'latitude and longitude must be provided together',
  externalIdLength: COMMON_MESSAGES.externalIdLength,
  // Spec 7, jobs update (where it words a rule differently from create).
  priority: 'priority must be one of: low, medium, high',
  endDateNotBeforeStart: 'end_date cannot be before start_date',
  coordinatesTogetherOnUpdate: 'Both latitude and longitude must be provided together',
  // Not listed by the API reference; same pattern, naming the field.
  startDateTooOld: 'start_date cannot be more than 6 months in the past',
  endDateFormat: COMMON_MESSAGES.endDateFormat,
  typeUnknown: 'type must match a job type configured in the workspace',
  descriptionLength: 'description must not exceed 1000 characters',
  inspectionNotesLength: 'inspection_notes must not exceed 2000 characters',
  latitudeNumber: 'latitude must be a number',
  longitudeNumber: 'longitude must be a number',
  captureTypesArray: 'capture_types must be an array',
  captureTypesCount: 'capture_types must not contain more than 20 items',
  captureTypesValues: `capture_types must contain only: ${CAPTURE_TYPES.join(', ')}`,
  captureTypesUnique: 'capture_types must not contain duplicates',
  recurringFrequency: `recurring_frequency must be one of: ${RECURRING_FREQUENCIES.join(', ')}`,
  recurringInterval: 'recurring_interval must be an integer between 1 and 365',
  intervalWithFlexible: 'recurring_interval is not allowed when recurring_frequency is flexible',
  selectedDaysArray: 'selected_days_of_week must be an array',
  selectedDaysCount: 'selected_days_of_week must not contain more than 7 values',
  selectedDaysValues: 'selected_days_of_week must contain only integers from 0 (Sunday) to 6 (Saturday)',
  selectedDaysUnique: 'selected_days_of_week must not contain duplicates',
  weekOfMonth: `week_of_month must be one of: ${WEEKS_OF_MONTH.join(', ')}`,
  weeksOfMonthArray: 'weeks_of_month must be an array',
  weeksOfMonthCount: 'weeks_of_month must not contain more than 5 values',
  weeksOfMonthValues: `weeks_of_month must contain only: ${WEEKS_OF_MONTH.join(', ')}`,
  weeksOfMonthUnique: 'weeks_of_month must not contain duplicates',
  flightsPerOccurrence: 'flights_per_occurrence must be an integer between 1 and 10',
} as const;

/** Upper bound on the pilots of one assign/unassign request: keeps one request's work (and event) bounded. */
export const MAX_PILOTS_PER_REQUEST = 100;

/** Spec 7, assign / unassign, and the 404s of docs/api.md, Jobs. */
export const ASSIGNMENT_MESSAGES = {
  assignPilotsRequired: 'pilots array is required and must not be empty',
  unassignPilotsRequired: 'pilots array is required and must contain at least one pilot ID',
  // Not listed by the API reference: an element that cannot be a pilot ID, and a bound on the list.
  pilotIds: 'pilots must contain only pilot IDs (non-empty strings)',
  pilotsCount: `pilots must not contain more than ${MAX_PILOTS_PER_REQUEST} pilot IDs`,
  pilotsNotFound: 'One or more pilots not found',
  noAssignments: 'No pilot assignments found for this job',
} as const;
