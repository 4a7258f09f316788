import { Decider, jsonSnapshot } from '../shared/decider';
import { ignoreUnknownEvent } from '../shared/event-schema';
import { notFound, validationError } from '../shared/domain-error';
import {
  isWebhookEventType,
  SealedSecret,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_STATUSES,
  WebhookChanges,
  WebhookCreatedBy,
  WebhookEvent,
  WebhookEventType,
  WebhookStatus,
} from './webhook.events';

export const webhookStream = (webhookId: string) => `webhook-${webhookId}`;

/** Messages of spec section 7 (webhooks), to the letter, and the ones it leaves out in its pattern. */
export const WEBHOOK_NOT_FOUND = 'Webhook not found';
export const WEBHOOK_MESSAGES = {
  nameRequired: 'name is required',
  nameType: 'name must be a string',
  nameLength: 'name must be between 2 and 100 characters',
  urlRequired: 'url is required',
  urlType: 'url must be a string',
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
export const invalidEventType = (type: unknown) => `Invalid event type: ${shown(type)}`;

/** A client's value as text for a message: String() throws on objects whose toString is not callable. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** How long the previous secret keeps signing after a rotation (Svix uses the same 24 hours). */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface WebhookFields {
  name: string;
  url: string;
  event_types: WebhookEventType[];
  status: WebhookStatus;
  failure_count: number;
  created: number;
  updated: number;
  created_by: WebhookCreatedBy | null;
  last_triggered_at: number | null;
}

export interface WebhookSecrets {
  current: SealedSecret;
  previous: { sealed: SealedSecret; expiresAt: number } | null;
}

export type WebhookState =
  | { status: 'absent' }
  | { status: 'live'; id: string; workspaceId: string; fields: WebhookFields; secrets: WebhookSecrets }
  | { status: 'deleted'; id: string; workspaceId: string };

/** The outcome of one attempt made by the dispatcher, as the subscription's state needs it. */
export interface DeliveryAttemptOutcome {
  succeeded: boolean;
  /** The receiver answered 410 Gone: it wants no more deliveries. */
  gone: boolean;
  responseStatus: number | null;
  attemptedAt: number;
}

export type WebhookCommand =
  | {
      type: 'CreateWebhook';
      id: string;
      workspaceId: string;
      name: string;
      url: string;
      eventTypes: WebhookEventType[];
      sealedSecret: SealedSecret;
      createdBy: WebhookCreatedBy | null;
      now: number;
    }
  | { type: 'UpdateWebhook'; changes: Omit<WebhookChanges, 'failure_count'>; now: number }
  | { type: 'RotateWebhookSecret'; sealedSecret: SealedSecret; overlapMs: number; now: number }
  | {
      type: 'RecordDeliveryAttempt';
      deliveryId: string;
      attempt: number;
      succeeded: boolean;
      /** The receiver answered 410 Gone: it wants no more deliveries. */
      gone: boolean;
      responseStatus: number | null;
      test: boolean;
      attemptedAt: number;
      pauseAfterFailures: number;
    }
  /**
   * The dispatcher's attempts, in the order they ended, recorded together (coalesced): the same
   * failure_count, pause and last_triggered_at as recording them one by one, in fewer events.
   */
  | { type: 'RecordDeliveryAttempts'; attempts: DeliveryAttemptOutcome[]; pauseAfterFailures: number }
  | { type: 'DeleteWebhook'; now: number };

const charLength = (value: string) => [...value].length;

export function assertWebhookName(name: unknown): asserts name is string {
  if (typeof name !== 'string') throw validationError(WEBHOOK_MESSAGES.nameType);
  if (charLength(name) < 2 || charLength(name) > 100) throw validationError(WEBHOOK_MESSAGES.nameLength);
}

/** `https://` and a URL with a host; returns the parsed URL (whose host the SSRF guard checks). */
export function parseWebhookUrl(url: string, httpsMessage: string = WEBHOOK_MESSAGES.urlHttps): URL {
  if (!url.startsWith('https://')) throw validationError(httpsMessage);
  if (url.length > WEBHOOK_URL_MAX_LENGTH) throw validationError(WEBHOOK_MESSAGES.urlLength);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw validationError(WEBHOOK_MESSAGES.urlInvalid);
  }
  if (parsed.protocol !== 'https:' || parsed.hostname === '') throw validationError(WEBHOOK_MESSAGES.urlInvalid);
  return parsed;
}

/** Each listed type must be one of section 6; a repeated type is kept once, in first-seen order. */
export function normaliseEventTypes(types: readonly unknown[], emptyMessage: string): WebhookEventType[] {
  if (types.length === 0) throw validationError(emptyMessage);
  for (const type of types) if (!isWebhookEventType(type)) throw validationError(invalidEventType(type));
  return [...new Set(types as WebhookEventType[])];
}

/** The sealed secrets that sign a delivery made at `now`: the current one, and the previous during the overlap. */
export function signingSecrets(secrets: WebhookSecrets, now: number): SealedSecret[] {
  return secrets.previous && secrets.previous.expiresAt > now ? [secrets.current, secrets.previous.sealed] : [secrets.current];
}

function decide(command: WebhookCommand, state: WebhookState): WebhookEvent[] {
  if (command.type === 'CreateWebhook') {
    if (state.status !== 'absent') return []; // the retry of a create that already happened
    assertWebhookName(command.name);
    parseWebhookUrl(command.url);
    const eventTypes = normaliseEventTypes(command.eventTypes, WEBHOOK_MESSAGES.eventTypesRequired);
    return [
      {
        type: 'webhook.created',
        data: {
          id: command.id,
          workspace_id: command.workspaceId,
          name: command.name,
          url: command.url,
          event_types: eventTypes,
          sealed_secret: command.sealedSecret,
          created_by: command.createdBy,
          created: command.now,
        },
      },
    ];
  }
  if (state.status !== 'live') {
    // A late attempt of a deleted webhook has nothing left to update.
    if (command.type === 'RecordDeliveryAttempt' || command.type === 'RecordDeliveryAttempts') return [];
    throw notFound(WEBHOOK_NOT_FOUND);
  }
  const { fields } = state;
  const base = { id: state.id, workspace_id: state.workspaceId };

  switch (command.type) {
    case 'UpdateWebhook': {
      const requested = command.changes;
      const changes: WebhookChanges = {};
      if (requested.name !== undefined) {
        assertWebhookName(requested.name);
        if (requested.name !== fields.name) changes.name = requested.name;
      }
      if (requested.url !== undefined) {
        parseWebhookUrl(requested.url, WEBHOOK_MESSAGES.urlUpdate);
        if (requested.url !== fields.url) changes.url = requested.url;
      }
      if (requested.event_types !== undefined) {
        const types = normaliseEventTypes(requested.event_types, WEBHOOK_MESSAGES.eventTypesUpdate);
        if (types.join() !== fields.event_types.join()) changes.event_types = types;
      }
      if (requested.status !== undefined) {
        if (!(WEBHOOK_STATUSES as readonly string[]).includes(requested.status)) throw validationError(WEBHOOK_MESSAGES.status);
        if (requested.status !== fields.status) changes.status = requested.status;
        // Spec 3.3: setting `active` resets the count, whatever the status was.
        if (requested.status === 'active' && fields.failure_count !== 0) changes.failure_count = 0;
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'webhook.updated', data: { ...base, changes, updated: command.now } }];
    }
    case 'RotateWebhookSecret':
      return [
        {
          type: 'webhook.secret_rotated',
          data: { ...base, sealed_secret: command.sealedSecret, previous_expires_at: command.now + command.overlapMs, updated: command.now },
        },
      ];
    case 'RecordDeliveryAttempt': {
      const failureCount = command.test ? fields.failure_count : command.succeeded ? 0 : fields.failure_count + 1;
      const events: WebhookEvent[] = [
        {
          type: 'webhook.delivery_attempted',
          data: {
            ...base,
            delivery_id: command.deliveryId,
            attempt: command.attempt,
            succeeded: command.succeeded,
            response_status: command.responseStatus,
            test: command.test,
            attempted_at: command.attemptedAt,
            failure_count: failureCount,
          },
        },
      ];
      // A test delivery never changes the subscription's state; a paused one stays as it is.
      if (!command.test && fields.status === 'active') {
        const reason = command.gone ? 'gone' : !command.succeeded && failureCount >= command.pauseAfterFailures ? 'consecutive_failures' : null;
        if (reason) {
          events.push({ type: 'webhook.auto_paused', data: { ...base, reason, failure_count: failureCount, updated: command.attemptedAt } });
        }
      }
      return events;
    }
    case 'RecordDeliveryAttempts':
      return recordAttempts(command.attempts, command.pauseAfterFailures, state, base);
    case 'DeleteWebhook':
      return [{ type: 'webhook.deleted', data: { ...base, deleted: command.now } }];
  }
}

/**
 * Folds the attempts one by one exactly as single records would (a success resets the count, a
 * failure adds one, 410 Gone or reaching the threshold pauses an active subscription), but
 * writes one `webhook.deliveries_attempted` per run of attempts: one event, or, when a pause
 * falls in the middle, the attempts up to it, `webhook.auto_paused`, and the attempts after it.
 */
function recordAttempts(
  attempts: readonly DeliveryAttemptOutcome[],
  pauseAfterFailures: number,
  state: Extract<WebhookState, { status: 'live' }>,
  base: { id: string; workspace_id: string },
): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  let failureCount = state.fields.failure_count;
  let lastTriggered = state.fields.last_triggered_at;
  let active = state.fields.status === 'active';
  let run: DeliveryAttemptOutcome[] = [];
  const closeRun = () => {
    if (run.length === 0) return;
    let first = run[0].attemptedAt;
    let last = run[0].attemptedAt;
    let succeeded = 0;
    for (const attempt of run) {
      first = Math.min(first, attempt.attemptedAt);
      last = Math.max(last, attempt.attemptedAt);
      if (attempt.succeeded) succeeded++;
    }
    lastTriggered = lastTriggered === null ? last : Math.max(lastTriggered, last);
    events.push({
      type: 'webhook.deliveries_attempted',
      data: {
        ...base,
        attempts: run.length,
        succeeded,
        failed: run.length - succeeded,
        first_attempted_at: first,
        last_attempted_at: last,
        last_response_status: run[run.length - 1].responseStatus,
        failure_count: failureCount,
        last_triggered_at: lastTriggered,
      },
    });
    run = [];
  };
  for (const attempt of attempts) {
    failureCount = attempt.succeeded ? 0 : failureCount + 1;
    run.push(attempt);
    if (!active) continue; // a paused subscription stays as it is; late attempts are still counted
    const reason = attempt.gone ? 'gone' : !attempt.succeeded && failureCount >= pauseAfterFailures ? 'consecutive_failures' : null;
    if (reason) {
      closeRun();
      events.push({ type: 'webhook.auto_paused', data: { ...base, reason, failure_count: failureCount, updated: attempt.attemptedAt } });
      active = false;
    }
  }
  closeRun();
  return events;
}

function evolve(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'webhook.created': {
      const d = event.data;
      return {
        status: 'live',
        id: d.id,
        workspaceId: d.workspace_id,
        fields: {
          name: d.name,
          url: d.url,
          event_types: d.event_types,
          status: 'active',
          failure_count: 0,
          created: d.created,
          updated: d.created,
          created_by: d.created_by,
          last_triggered_at: null,
        },
        secrets: { current: d.sealed_secret, previous: null },
      };
    }
    case 'webhook.deleted':
      if (state.status === 'absent') return state;
      return { status: 'deleted', id: state.id, workspaceId: state.workspaceId };
  }
  if (state.status !== 'live') return state;
  switch (event.type) {
    case 'webhook.updated':
      return { ...state, fields: { ...state.fields, ...event.data.changes, updated: event.data.updated } };
    case 'webhook.secret_rotated':
      return {
        ...state,
        fields: { ...state.fields, updated: event.data.updated },
        secrets: { current: event.data.sealed_secret, previous: { sealed: state.secrets.current, expiresAt: event.data.previous_expires_at } },
      };
    case 'webhook.delivery_attempted':
      return {
        ...state,
        fields: {
          ...state.fields,
          failure_count: event.data.failure_count,
          // The latest recorded attempt, exactly as the projection shows it.
          last_triggered_at: event.data.attempted_at,
        },
      };
    case 'webhook.deliveries_attempted':
      return {
        ...state,
        fields: { ...state.fields, failure_count: event.data.failure_count, last_triggered_at: event.data.last_triggered_at },
      };
    case 'webhook.auto_paused':
      return { ...state, fields: { ...state.fields, status: 'paused', updated: event.data.updated } };
    default:
      return ignoreUnknownEvent(state, event);
  }
}

export const webhookDecider: Decider<WebhookState, WebhookCommand, WebhookEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve,
  decide,
  snapshot: jsonSnapshot<WebhookState>(1),
};

/** The webhook as the API shows it (spec 2.6 without `secret`); shared by the projector and the tests. */
export function webhookView(id: string, fields: WebhookFields) {
  return {
    id,
    name: fields.name,
    url: fields.url,
    event_types: fields.event_types,
    status: fields.status,
    failure_count: fields.failure_count,
    created: fields.created,
    updated: fields.updated,
    created_by: fields.created_by,
    last_triggered_at: fields.last_triggered_at,
  };
}
export type WebhookView = ReturnType<typeof webhookView>;
