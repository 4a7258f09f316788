import { absentFirstDecider, Decider } from '../shared/decider';
import { ignoreUnknownEvent } from '../shared/event-schema';
import { notFound, validationError } from '../shared/domain-error';
import {
  isWebhookEventType,
  SealedSecret,
  WEBHOOK_STATUSES,
  WebhookChanges,
  WebhookCreated,
  WebhookCreatedBy,
  WebhookEvent,
  WebhookEventType,
  WebhookStatus,
} from './webhook.events';
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES, WEBHOOK_NOT_FOUND, WEBHOOK_URL_PREFIX } from './webhook.values';

export const webhookStream = (webhookId: string) => `webhook-${webhookId}`;

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

/** How long the previous secret keeps signing after a rotation (Svix uses the same 24 hours). */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * The subscription as its stream knows it. `failure_count` and `last_triggered_at` are the values
 * the stream last recorded (a pause's count, a reset, and the attempt events of older histories):
 * the live telemetry is in the delivery store (WebhookQueue), and the API shows that one.
 */
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
  | {
      status: 'live';
      id: string;
      workspaceId: string;
      fields: WebhookFields;
      secrets: WebhookSecrets;
      /** How many times the failure count was reset (re-activations); the delivery store applies each once. */
      resetGeneration: number;
    }
  | { status: 'deleted'; id: string; workspaceId: string };

/** The outcome of one attempt made by the dispatcher, as the pause rule needs it. */
export interface DeliveryAttemptOutcome {
  succeeded: boolean;
  /** The receiver answered 410 Gone: it wants no more deliveries. */
  gone: boolean;
  attemptedAt: number;
}

export type AutoPauseReason = 'consecutive_failures' | 'gone';

/**
 * The pause rule: folds attempts that ended in this order, from `failureCountBefore` consecutive
 * failures (a success resets the count, a failure adds one), and answers with the first attempt
 * that pauses the subscription: 410 Gone, or a failure that brings the count to
 * `pauseAfterFailures` or beyond. Beyond, because a pause lost to a crash (the count was settled,
 * the pause not yet recorded) is then recorded at the next failure. Null when none does.
 */
export function pauseRuleCrossing(
  failureCountBefore: number,
  attempts: readonly DeliveryAttemptOutcome[],
  pauseAfterFailures: number,
): { reason: AutoPauseReason; failureCount: number; attemptedAt: number } | null {
  let failureCount = failureCountBefore;
  for (const attempt of attempts) {
    failureCount = attempt.succeeded ? 0 : failureCount + 1;
    if (attempt.gone) return { reason: 'gone', failureCount, attemptedAt: attempt.attemptedAt };
    if (!attempt.succeeded && failureCount >= pauseAfterFailures) {
      return { reason: 'consecutive_failures', failureCount, attemptedAt: attempt.attemptedAt };
    }
  }
  return null;
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
  | {
      type: 'UpdateWebhook';
      changes: Omit<WebhookChanges, 'failure_count'>;
      now: number;
      /**
       * The delivery store's current failure count: `status: active` on an active subscription
       * records a reset only when there is something to reset. Without it, the stream's own value.
       */
      failureCount?: number;
    }
  | { type: 'RotateWebhookSecret'; sealedSecret: SealedSecret; overlapMs: number; now: number }
  /**
   * The dispatcher found the pause rule crossed when it settled an attempt (pauseRuleCrossing on
   * the delivery store's telemetry). Idempotent: a subscription that is not active stays as it is,
   * so two processes settling at once record one pause.
   */
  | { type: 'AutoPauseWebhook'; reason: AutoPauseReason; failureCount: number; now: number }
  | { type: 'DeleteWebhook'; now: number };

const charLength = (value: string) => [...value].length;

export function assertWebhookName(name: unknown): asserts name is string {
  if (typeof name !== 'string') throw validationError(WEBHOOK_MESSAGES.nameType);
  const { min, max } = WEBHOOK_LIMITS.name;
  if (charLength(name) < min || charLength(name) > max) throw validationError(WEBHOOK_MESSAGES.nameLength);
}

/** `https://` and a URL with a host; returns the parsed URL (whose host the SSRF guard checks). */
export function parseWebhookUrl(url: string, httpsMessage: string = WEBHOOK_MESSAGES.urlHttps): URL {
  if (!url.startsWith(WEBHOOK_URL_PREFIX)) throw validationError(httpsMessage);
  if (url.length > WEBHOOK_LIMITS.url) throw validationError(WEBHOOK_MESSAGES.urlLength);
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
  return secrets.previous && secrets.previous.expiresAt > now
    ? [secrets.current, secrets.previous.sealed]
    : [secrets.current];
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
    // A late attempt of a deleted webhook has nothing left to pause.
    if (command.type === 'AutoPauseWebhook') return [];
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
        if (!(WEBHOOK_STATUSES as readonly string[]).includes(requested.status))
          throw validationError(WEBHOOK_MESSAGES.status);
        if (requested.status !== fields.status) changes.status = requested.status;
        // Spec 3.3: setting `active` resets the count, whatever the status was. A re-activation
        // is always a reset (the count that paused it may have moved since, in the delivery store).
        const count = command.failureCount ?? fields.failure_count;
        if (requested.status === 'active' && (fields.status !== 'active' || count !== 0)) changes.failure_count = 0;
      }
      if (Object.keys(changes).length === 0) return [];
      const reset = changes.failure_count === 0 ? { reset_generation: state.resetGeneration + 1 } : {};
      return [{ type: 'webhook.updated', data: { ...base, changes, updated: command.now, ...reset } }];
    }
    case 'RotateWebhookSecret':
      return [
        {
          type: 'webhook.secret_rotated',
          data: {
            ...base,
            sealed_secret: command.sealedSecret,
            previous_expires_at: command.now + command.overlapMs,
            updated: command.now,
          },
        },
      ];
    case 'AutoPauseWebhook':
      if (fields.status !== 'active') return []; // paused already (by another process, or by hand)
      return [
        {
          type: 'webhook.auto_paused',
          data: { ...base, reason: command.reason, failure_count: command.failureCount, updated: command.now },
        },
      ];
    case 'DeleteWebhook':
      return [{ type: 'webhook.deleted', data: { ...base, deleted: command.now } }];
  }
}

function evolve(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'webhook.created': {
      const d = event.data;
      return {
        status: 'live',
        id: d.id,
        workspaceId: d.workspace_id,
        fields: createdWebhookFields(d),
        secrets: { current: d.sealed_secret, previous: null },
        resetGeneration: 0,
      };
    }
    case 'webhook.deleted':
      if (state.status === 'absent') return state;
      return { status: 'deleted', id: state.id, workspaceId: state.workspaceId };
  }
  if (state.status !== 'live') return state;
  switch (event.type) {
    case 'webhook.updated': {
      const reset = event.data.changes.failure_count === 0;
      return {
        ...state,
        fields: { ...state.fields, ...event.data.changes, updated: event.data.updated },
        resetGeneration: reset ? (event.data.reset_generation ?? state.resetGeneration + 1) : state.resetGeneration,
      };
    }
    case 'webhook.secret_rotated':
      return {
        ...state,
        fields: { ...state.fields, updated: event.data.updated },
        secrets: {
          current: event.data.sealed_secret,
          previous: { sealed: state.secrets.current, expiresAt: event.data.previous_expires_at },
        },
      };
    // Older histories: attempts recorded on the stream (no longer written). Still folded, so the
    // stream's values stay what they were; the delivery store holds the live telemetry.
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
        fields: {
          ...state.fields,
          failure_count: event.data.failure_count,
          last_triggered_at: event.data.last_triggered_at,
        },
      };
    case 'webhook.auto_paused':
      return {
        ...state,
        fields: {
          ...state.fields,
          status: 'paused',
          failure_count: event.data.failure_count,
          updated: event.data.updated,
        },
      };
    default:
      return ignoreUnknownEvent(state, event);
  }
}

// Snapshot shape 2: resetGeneration (failure telemetry moved to the delivery store).
export const webhookDecider: Decider<WebhookState, WebhookCommand, WebhookEvent> = absentFirstDecider(
  evolve,
  decide,
  2,
);

/** A new subscription: active, no failures, never triggered. The aggregate and the read model both start here. */
export function createdWebhookFields(d: WebhookCreated['data']): WebhookFields {
  return {
    name: d.name,
    url: d.url,
    event_types: d.event_types,
    status: 'active',
    failure_count: 0,
    created: d.created,
    updated: d.created,
    created_by: d.created_by,
    last_triggered_at: null,
  };
}

/** The webhook as the API shows it (docs/api.md, Webhooks without `secret`); shared by the projector and the tests. */
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
