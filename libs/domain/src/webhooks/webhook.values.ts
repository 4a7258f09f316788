import { COMMON_MESSAGES, mustBeString } from '../shared/common.values';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES } from './webhook.events';

/**
 * Bounds and messages of the webhook resource (docs/api.md, Webhooks), in the style of job.values.ts:
 * the HTTP DTOs, the OpenAPI document and the webhook decider read them from here. Messages the API
 * reference lists are quoted to the letter; the ones it leaves out follow its pattern.
 */

export const WEBHOOK_LIMITS = {
  name: { min: 2, max: 100 },
  url: 2048,
} as const;
export const WEBHOOK_URL_MAX_LENGTH = WEBHOOK_LIMITS.url;
export const WEBHOOK_URL_PREFIX = 'https://';

export const WEBHOOK_NOT_FOUND = 'Webhook not found';

/** The answers to a successful change (docs/api.md, Webhooks). */
export const WEBHOOK_ANSWERS = {
  created: 'Webhook created successfully. Store the secret now: it is not shown again.',
  updated: 'Webhook updated successfully',
  secretRotated: 'Webhook secret rotated. Store the new secret now: it is not shown again.',
  testSucceeded: 'Test delivery succeeded',
  testFailed: 'Test delivery failed',
} as const;
export const WEBHOOK_MESSAGES = {
  nameRequired: COMMON_MESSAGES.nameRequired,
  nameType: mustBeString('name'),
  nameLength: 'name must be between 2 and 100 characters',
  urlRequired: 'url is required',
  urlType: mustBeString('url'),
  urlHttps: 'url must start with https://',
  urlUpdate: 'url must be a string starting with https://',
  urlInvalid: 'url must be a valid URL',
  urlLength: 'url must not exceed 2048 characters',
  urlNotPublic: 'url must not point to a private, loopback, link-local or otherwise internal address',
  eventTypesRequired: `event_types is required and must include at least one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
  eventTypesUpdate: 'event_types must be a non-empty array',
  status: `status must be one of: ${WEBHOOK_STATUSES.join(', ')}`,
  nothingToUpdate: 'At least one field to update is required (name, url, event_types, status)',
} as const;

/** POST /webhooks/{id}/recover (docs/webhooks.md, Recovery). */
export const RECOVER_MESSAGES = {
  sinceRequired: 'since is required',
  sinceTimestamp: 'since must be a timestamp in milliseconds',
  untilTimestamp: 'until must be a timestamp in milliseconds',
  untilAfterSince: 'until must be after since',
} as const;
