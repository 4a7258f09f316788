/**
 * The webhook delivery queue port: the dispatcher's durable state. Adapters: embedded SQLite
 * (default) and MongoDB (scaled deployment); both pass test/contract/webhook-queue.contract.ts.
 *
 * It holds five things:
 * - the fan-out checkpoint (exclusive event-store position) and the lease that lets exactly one
 *   dispatcher process at a time turn events into deliveries;
 * - the routes: every subscription's workspace, event types and status as of that checkpoint, so
 *   an event is matched against the subscriptions as they were when it happened;
 * - the deliveries (one per event and subscription), claimed by workers under a lease;
 * - the attempt log shown by GET /webhooks/{id}/deliveries;
 * - each subscription's delivery telemetry (consecutive failures, last attempt, totals), updated
 *   in the transaction that settles an attempt: the webhook's event stream records only changes
 *   of state (a pause, a re-activation), not one event per attempt.
 *
 * A fan-out batch (routes, deliveries, checkpoint) is committed atomically where the store can
 * (SQLite, MongoDB replica set); otherwise delivery ids are deterministic and inserts idempotent, so
 * replaying a batch after a crash adds nothing twice.
 */
export const WEBHOOK_QUEUE = Symbol('WebhookQueue');

export interface WebhookRoute {
  webhookId: string;
  workspaceId: string;
  eventTypes: string[];
  active: boolean;
}

export interface NewDelivery {
  /** The `webhook-id` header: one per event and subscription, the same on every retry. */
  id: string;
  webhookId: string;
  workspaceId: string;
  /** The store event behind it. */
  eventId: string;
  eventType: string;
  /** The exact body sent on every attempt (UTF-8 JSON). */
  payload: string;
  createdAt: number;
  nextAttemptAt: number;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** A delivery held by one worker until `leaseUntil`; settle it with its `claimToken`. */
export interface ClaimedDelivery extends NewDelivery {
  /** Attempts made so far, over every round. */
  attempts: number;
  /** Value of `attempts` when the current round of the retry schedule began (recover starts a new round). */
  roundStart: number;
  claimToken: string;
  leaseUntil: number;
}

export interface DeliveryAttempt {
  deliveryId: string;
  webhookId: string;
  workspaceId: string;
  eventType: string;
  /** 1 for the first attempt of the delivery; keeps counting across recover rounds. */
  attempt: number;
  attemptedAt: number;
  durationMs: number;
  succeeded: boolean;
  responseStatus: number | null;
  /** The first few KB of the response body. */
  responseBody: string | null;
  error: string | null;
  /** When the next attempt is due; null when there is none. */
  nextAttemptAt: number | null;
}

export interface StoredAttempt extends DeliveryAttempt {
  /** Orders the log (newest has the highest); the list cursor. */
  seq: number;
}

export type Settlement =
  | { status: 'retry'; nextAttemptAt: number }
  | { status: 'succeeded' }
  /** Terminal: retries exhausted, receiver gone, or the subscription paused or deleted. */
  | { status: 'failed'; reason: string };

/** One settlement of a batch: the claim, the attempt made (if any) and the delivery's new state. */
export interface SettleRequest {
  claim: { id: string; claimToken: string };
  attempt: DeliveryAttempt | null;
  settlement: Settlement;
  /**
   * The subscription's reset generation as the worker saw it before the attempt (the stream's
   * count of re-activations). A reset the store has not applied yet is applied first, in the same
   * statement, so an attempt made after a re-activation never counts on top of the old failures.
   */
  resetGeneration?: number;
}

/** A subscription's delivery telemetry, kept by the queue (absent until its first attempt or reset). */
export interface WebhookTelemetry {
  webhookId: string;
  /** Consecutive failed attempts of the dispatcher (test deliveries never count); 0 after a success or a reset. */
  failureCount: number;
  /** The latest dispatcher attempt. */
  lastAttemptAt: number | null;
  /** The latest attempt of any kind, test deliveries included: the API's `last_triggered_at`. */
  lastTriggeredAt: number | null;
  /** The answer's status of the latest dispatcher attempt; null when it got none. */
  lastResponseStatus: number | null;
  /** Dispatcher attempts ever made, and how many of them failed. */
  attempts: number;
  failures: number;
  /** The latest reset generation applied (see SettleRequest.resetGeneration). */
  resetGeneration: number;
}

/** What one settle batch did to a subscription's failure count. */
export interface TelemetryChange {
  webhookId: string;
  /** The count the batch's attempts started from (after a reset it applied), then the count after them. */
  failureCountBefore: number;
  failureCount: number;
}

export interface SettleResult {
  /** One flag per request, in order: false where that claim was stale (nothing written for it). */
  settled: boolean[];
  /** One entry per subscription that had attempts settled in the batch. */
  telemetry: TelemetryChange[];
}

export interface FanoutBatch {
  /** Position of the last event the batch covers: the new checkpoint. */
  checkpoint: number;
  /** Routes to insert or replace. */
  upsertRoutes: WebhookRoute[];
  /** Subscriptions that were deleted: their route, deliveries, attempt log and telemetry go. */
  removeRoutes: string[];
  /**
   * Re-activations passed by this batch (`webhook.updated` with a reset generation): applied as
   * `resetFailures` in the same transaction as the checkpoint, so a reset recorded on the stream
   * reaches the telemetry even when the process that recorded it died before applying it.
   */
  resetFailures?: { webhookId: string; generation: number }[];
  deliveries: NewDelivery[];
}

/** The fan-out lease moved to another process; the batch was not committed. */
export class FanoutLeaseLostError extends Error {
  constructor(owner: string) {
    super(`Webhook fan-out lease is no longer held by ${owner}`);
    this.name = 'FanoutLeaseLostError';
  }
}

export type RequeueOutcome = 'queued' | 'already_queued' | 'not_found';

/** A subscription's attempts in one period (a chart's bar): test attempts included, as in the log. */
export interface AttemptCount {
  /** The period's start, epoch milliseconds: a multiple of the bucket size. */
  bucket: number;
  succeeded: number;
  failed: number;
}

/** The deliveries waiting across every subscription. */
export interface DeliveryBacklog {
  /** Pending deliveries not attempted yet. */
  pending: number;
  /** Pending deliveries with at least one failed attempt behind them, waiting for the next one. */
  retrying: number;
}

/** A subscription the operators should look at: paused, or failing its latest attempts. */
export interface TroubledSubscription {
  webhookId: string;
  workspaceId: string;
  /** False while the subscription is paused (its route as the fan-out last recorded it). */
  active: boolean;
  failureCount: number;
  lastAttemptAt: number | null;
  lastResponseStatus: number | null;
}

export interface WebhookQueue {
  /** Creates tables/collections and indexes that do not exist yet. */
  init(): Promise<void>;

  /**
   * Takes the fan-out lease, or renews it for its holder, until `now + leaseMs`. Resolves with the
   * checkpoint while `owner` holds the lease, null while another live process does.
   */
  acquireFanout(owner: string, now: number, leaseMs: number): Promise<{ checkpoint: number } | null>;
  /** Ends `owner`'s lease now (its own shutdown, or a holder known to be dead). */
  releaseFanout(owner: string): Promise<void>;
  /** Who holds (or last held) the fan-out lease, and until when. */
  fanoutHolder(): Promise<{ owner: string; leaseUntil: number } | null>;
  loadRoutes(): Promise<WebhookRoute[]>;
  /** Commits one fan-out batch if `owner` still holds the lease; throws FanoutLeaseLostError otherwise. */
  commitFanout(owner: string, batch: FanoutBatch): Promise<void>;

  /**
   * Leases up to `limit` pending deliveries that are due (and not leased by a live worker) to
   * `owner` until `now + leaseMs`. Two calls never get the same delivery while its lease runs.
   */
  claimDue(owner: string, now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /**
   * Records the attempt (if one was made) and the delivery's new state, if the claim is still
   * this one; false when the lease was lost to another worker (nothing is written then).
   */
  settle(
    claim: { id: string; claimToken: string },
    attempt: DeliveryAttempt | null,
    settlement: Settlement,
  ): Promise<boolean>;
  /**
   * `settle` for several claims at once, in one transaction where the store has them (the worker
   * settles the attempts that ended together in one write). Each claim is checked on its own:
   * one flag per request, in order, false where that claim was stale. In the same transaction,
   * the telemetry of each subscription with settled attempts is updated (one statement per
   * subscription, see telemetryDeltas): a success resets its failure count, a failure adds one,
   * in request order, after applying a newer `resetGeneration`; the change is in `telemetry`.
   */
  settleMany(requests: readonly SettleRequest[]): Promise<SettleResult>;
  /** Gives a claimed delivery back untouched (shutdown before the attempt finished). */
  release(claim: { id: string; claimToken: string }): Promise<void>;
  /**
   * The owners holding claims whose lease has not ended at `now`: the worker asks its host which
   * of them are dead processes, whose claims need not be waited out.
   */
  claimOwners(now: number): Promise<string[]>;
  /**
   * Ends every claim `owner` holds (a worker known to be dead): those deliveries are due at `now`,
   * untouched otherwise, and a late settlement of one of those claims writes nothing. The count.
   */
  releaseClaimsOf(owner: string, now: number): Promise<number>;
  /** The earliest time a pending delivery becomes claimable, or null when none is pending. */
  nextDueAt(): Promise<number | null>;

  /**
   * Adds an attempt that belongs to no queued delivery (a test delivery), and in the same
   * transaction moves the subscription's `lastTriggeredAt` to it (never back); a test delivery
   * changes no other telemetry.
   */
  recordAttempt(attempt: DeliveryAttempt): Promise<void>;
  /**
   * Applies reset generation `generation` (a re-activation): the failure count becomes 0 if the
   * subscription's applied generation is older, and nothing happens otherwise — so a reset applied
   * twice (by its handler and by the fan-out) or late never wipes failures counted after it.
   */
  resetFailures(webhookId: string, generation: number): Promise<void>;
  /** The telemetry of these subscriptions, in one read (a page of the list); absent ones are left out. */
  loadTelemetry(webhookIds: readonly string[]): Promise<WebhookTelemetry[]>;
  /** The subscription's attempts, newest first; `beforeSeq` pages back. */
  listAttempts(webhookId: string, options: { beforeSeq?: number; limit: number }): Promise<StoredAttempt[]>;
  /**
   * The subscription's attempts from `since` on, counted per period of `bucketMs` (periods start at
   * multiples of it: whole UTC days or hours), oldest first; periods without attempts are absent.
   */
  countAttempts(webhookId: string, options: { since: number; bucketMs: number }): Promise<AttemptCount[]>;
  /** `countAttempts` over every subscription at once (the operators' view across workspaces). */
  countAllAttempts(options: { since: number; bucketMs: number }): Promise<AttemptCount[]>;
  /** The pending deliveries of every subscription, counted. */
  deliveryBacklog(): Promise<DeliveryBacklog>;
  /**
   * Subscriptions paused or with consecutive failures, most failures first (then by id), at most
   * `limit`: read from the routes and the telemetry, one row per subscription.
   */
  troubledSubscriptions(limit: number): Promise<TroubledSubscription[]>;
  /**
   * Puts the subscription's failed deliveries created in [since, until) back in the queue, due
   * `now`, with a new round of the retry schedule. Resolves with how many.
   */
  requeueFailed(webhookId: string, options: { since: number; until: number; now: number }): Promise<number>;
  /**
   * Puts one settled delivery of the subscription (failed or succeeded) back in the queue, due
   * `now`, with a new round of the retry schedule; its id, and so its `webhook-id` header, stay the
   * same. `already_queued` when it is pending (nothing changes), `not_found` when the subscription
   * has no such delivery (a test delivery is never queued; retention may have pruned it).
   */
  requeueDelivery(webhookId: string, deliveryId: string, now: number): Promise<RequeueOutcome>;
  /** Forgets settled deliveries and attempts older than `before` (retention). */
  prune(before: number): Promise<void>;
  close(): Promise<void>;
}
