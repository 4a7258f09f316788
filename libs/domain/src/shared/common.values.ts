/**
 * Field rules and messages several resources share word for word (docs/api.md, Validation messages):
 * a display name of 1 to 100 characters (projects, jobs, workspaces, API keys), the caller's
 * `external_id`, and the ISO dates. Each resource's values file refers to these, so a message the
 * API reference repeats for several resources is still spelled once.
 */

export const NAME_LIMITS = { min: 1, max: 100 } as const;
export const EXTERNAL_ID_MAX_LENGTH = 255;

/** The message of a field given as something other than a string. */
export const mustBeString = (field: string) => `${field} must be a string`;

export const COMMON_MESSAGES = {
  nameRequired: 'name is required',
  nameLength: 'name must be between 1 and 100 characters',
  startDateRequired: 'start_date is required',
  startDateFormat: 'start_date must be a valid ISO date string',
  endDateFormat: 'end_date must be a valid ISO date string',
  externalIdLength: 'external_id must not exceed 255 characters',
} as const;
