import { COMMON_MESSAGES, mustBeString } from '../shared/common.values';

/**
 * Bounds and messages of the job type resource (docs/api.md, Job types), in the style of job.values.ts:
 * the HTTP DTO, the OpenAPI document and the job type decider read them from here.
 */

export const JOB_TYPE_LIMITS = {
  name: { min: 1, max: 50 },
  /** docs/api.md, Limits: "max 20 characters", so 20 are accepted. */
  icon: { min: 1, max: 20 },
} as const;

/** Spec 2.4: icon defaults to `settings`. */
export const DEFAULT_JOB_TYPE_ICON = 'settings';

export const JOB_TYPE_NOT_FOUND = 'Job Type not found';
export const PREDEFINED_JOB_TYPE_NOT_DELETABLE = 'Cannot delete predefined job types';

/** Spec 7, job types create, plus one message of our own for an empty icon. */
export const JOB_TYPE_MESSAGES = {
  nameRequired: COMMON_MESSAGES.nameRequired,
  nameLength: 'name must be between 1 and 50 characters',
  iconString: mustBeString('icon'),
  /** The API reference's words; its limit (2.4, 8) is "max 20 characters", so 20 are accepted. */
  iconLength: 'icon must be less than 20 characters',
  iconEmpty: 'icon must not be empty',
} as const;
