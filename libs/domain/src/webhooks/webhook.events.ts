import { DomainEvent } from '../shared/decider';

/** The event types a subscription may list (docs/api.md, Webhook events), in the API reference's order. */
export const WEBHOOK_EVENT_TYPES = [
  'project.created',
  'project.updated',
  'project.deleted',
  'job.created',
  'job.updated',
  'job.deleted',
  'job_type.created',
  'job_type.deleted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const isWebhookEventType = (value: unknown): value is WebhookEventType =>
  typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

export const WEBHOOK_STATUSES = ['active', 'paused'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** `created_by` of a webhook (docs/api.md, Webhooks): like a project's, without the profile picture. */
export interface WebhookCreatedBy {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

/**
 * A signing secret as the event history keeps it: sealed (encrypted and authenticated) by the
 * secret box adapter, opaque to the domain. The clear secret never appears in an event.
 */
export type SealedSecret = string;

export interface WebhookChanges {
  name?: string;
  url?: string;
  event_types?: WebhookEventType[];
  status?: WebhookStatus;
  /** Only ever set to 0: re-activation resets the count (docs/api.md, Webhooks); the event then carries `reset_generation`. */
  failure_count?: number;
}

interface WebhookRef {
  id: string;
  workspace_id: string;
}

export type WebhookCreated = DomainEvent<
  'webhook.created',
  WebhookRef & {
    name: string;
    url: string;
    event_types: WebhookEventType[];
    sealed_secret: SealedSecret;
    created_by: WebhookCreatedBy | null;
    created: number;
  }
>;
/**
 * Carries only what changed. A reset of the failure count (`changes.failure_count: 0`) carries its
 * `reset_generation`: the n-th reset of this subscription. The delivery store keeps the count and
 * applies each generation once (see WebhookQueue.resetFailures), so a reset applied late never
 * wipes failures counted after it. Older reset events lack it: they count one generation each.
 */
export type WebhookUpdated = DomainEvent<
  'webhook.updated',
  WebhookRef & { changes: WebhookChanges; updated: number; reset_generation?: number }
>;
/** The new secret signs from now on; the previous one also signs until `previous_expires_at`. */
export type WebhookSecretRotated = DomainEvent<
  'webhook.secret_rotated',
  WebhookRef & { sealed_secret: SealedSecret; previous_expires_at: number; updated: number }
>;
/**
 * History only: no longer written. Delivery telemetry (failure_count, last_triggered_at, totals)
 * lives in the delivery store (WebhookQueue), updated in the transaction that settles an attempt;
 * the stream records only changes of state. Older histories hold one of these per attempt (and
 * per test delivery); the aggregate and the projection still fold them, so those streams load.
 *
 * One delivery attempt and its outcome. `failure_count` is the count after this attempt; a test
 * delivery (`test: true`) changed only `last_triggered_at`.
 */
export type WebhookDeliveryAttempted = DomainEvent<
  'webhook.delivery_attempted',
  WebhookRef & {
    delivery_id: string;
    attempt: number;
    succeeded: boolean;
    response_status: number | null;
    test: boolean;
    attempted_at: number;
    failure_count: number;
  }
>;
/**
 * History only: no longer written (see `webhook.delivery_attempted`); still folded when loading.
 *
 * Several delivery attempts of the dispatcher, recorded together: the attempts made in one short
 * stretch (the dispatcher coalesces them, at most one such event per subscription at a time), in
 * the order they ended. A truthful summary; every attempt itself (delivery, number, status, body,
 * duration, error) is in the attempt log (GET /webhooks/{id}/deliveries).
 *
 * `failure_count` is the count after the last of them, `last_triggered_at` the subscription's
 * value afterwards (the latest attempt it has seen), so the projection needs no state. When the
 * attempts cross the pause rule, the event stops at the attempt that did, `webhook.auto_paused`
 * follows, and the later attempts go in a next event: the history shows exactly when it paused.
 */
export type WebhookDeliveriesAttempted = DomainEvent<
  'webhook.deliveries_attempted',
  WebhookRef & {
    /** How many attempts this event records (at least 1). */
    attempts: number;
    succeeded: number;
    failed: number;
    first_attempted_at: number;
    last_attempted_at: number;
    /** The status of the last attempt's answer; null when it got none (timeout, refused, …). */
    last_response_status: number | null;
    failure_count: number;
    last_triggered_at: number;
  }
>;
/**
 * The dispatcher paused the subscription: too many consecutive failures, or the receiver answered
 * 410 Gone. `failure_count` is the delivery store's count at the attempt that crossed the rule.
 * Recorded once: the aggregate ignores a pause of a subscription that is not active.
 */
export type WebhookAutoPaused = DomainEvent<
  'webhook.auto_paused',
  WebhookRef & { reason: 'consecutive_failures' | 'gone'; failure_count: number; updated: number }
>;
export type WebhookDeleted = DomainEvent<'webhook.deleted', WebhookRef & { deleted: number }>;

export type WebhookEvent =
  | WebhookCreated
  | WebhookUpdated
  | WebhookSecretRotated
  | WebhookDeliveryAttempted
  | WebhookDeliveriesAttempted
  | WebhookAutoPaused
  | WebhookDeleted;
