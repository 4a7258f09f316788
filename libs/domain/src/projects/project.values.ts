import { COMMON_MESSAGES, EXTERNAL_ID_MAX_LENGTH, NAME_LIMITS } from '../shared/common.values';

/**
 * Bounds and messages of the project resource (docs/api.md, Projects), in the style of job.values.ts:
 * the HTTP DTOs, the OpenAPI document and the project decider all read them from here.
 */

export const PROJECT_LIMITS = {
  name: NAME_LIMITS,
  /** Required on create but may be empty there; the API reference bounds it to 1..1000 only on update. */
  description: { createMin: 0, min: 1, max: 1000 },
  externalId: EXTERNAL_ID_MAX_LENGTH,
  laancNumber: 100,
} as const;

export const PROJECT_NOT_FOUND = 'Project not found';

/** The API reference's answers to a successful change (docs/api.md, Projects). */
export const PROJECT_ANSWERS = {
  updated: 'Project updated successfully',
  archived: 'Project archived successfully',
  unarchived: 'Project unarchived successfully',
} as const;

export const PROJECT_MESSAGES = {
  nameRequired: COMMON_MESSAGES.nameRequired,
  nameLength: COMMON_MESSAGES.nameLength,
  startDateRequired: COMMON_MESSAGES.startDateRequired,
  startDateFormat: COMMON_MESSAGES.startDateFormat,
  endDateFormat: COMMON_MESSAGES.endDateFormat,
  /** Project end dates are strictly after the start (docs/api.md, Projects: "must be after start_date"). */
  endDateAfterStart: 'end_date must be after start_date',
  descriptionRequired: 'description is required',
  descriptionLength: 'description must be between 1 and 1000 characters',
  externalIdLength: COMMON_MESSAGES.externalIdLength,
  laancNumberLength: 'laanc_number must not exceed 100 characters',
  // POST /projects/{id}/archive, and the `archived` filter of GET /projects.
  archivedBoolean: 'archived must be a boolean',
  archivedFilter: 'archived must be true or false',
} as const;

/** Kept under its older name: the handlers and tests quote it. */
export const END_DATE_AFTER_START = PROJECT_MESSAGES.endDateAfterStart;
