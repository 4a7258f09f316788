/**
 * The webhook delivery queue port: the dispatcher's durable state. Adapters: embedded SQLite
 * (default) and MongoDB (scaled deployment); both pass test/contract/webhook-queue.contract.ts.
 *
 * It holds four things:
 * - the fan-out checkpoint (exclusive event-store position) and the lease that lets exactly one
 *   dispatcher process at a time turn events into deliveries;
 * - the routes: every subscription's workspace, event types and status as of that checkpoint, so
 *   an event is matched against the subscriptions as they were when it happened;
 * - the deliveries (one per event and subscription), claimed by workers under a lease;
 * - the attempt log shown by GET /webhooks/{id}/deliveries.
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
}

export interface FanoutBatch {
  /** Position of the last event the batch covers: the new checkpoint. */
  checkpoint: number;
  /** Routes to insert or replace. */
  upsertRoutes: WebhookRoute[];
  /** Subscriptions that were deleted: their route, deliveries and attempt log go. */
  removeRoutes: string[];
  deliveries: NewDelivery[];
}

/** The fan-out lease moved to another process; the batch was not committed. */
export class FanoutLeaseLostError extends Error {
  constructor(owner: string) {
    super(`Webhook fan-out lease is no longer held by ${owner}`);
    this.name = 'FanoutLeaseLostError';
  }
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
  settle(claim: { id: string; claimToken: string }, attempt: DeliveryAttempt | null, settlement: Settlement): Promise<boolean>;
  /**
   * `settle` for several claims at once, in one transaction where the store has them (the worker
   * settles the attempts that ended together in one write). Each claim is checked on its own:
   * resolves with one flag per request, in order, false where that claim was stale.
   */
  settleMany(requests: readonly SettleRequest[]): Promise<boolean[]>;
  /** Gives a claimed delivery back untouched (shutdown before the attempt finished). */
  release(claim: { id: string; claimToken: string }): Promise<void>;
  /** The earliest time a pending delivery becomes claimable, or null when none is pending. */
  nextDueAt(): Promise<number | null>;

  /** Adds an attempt that belongs to no queued delivery (a test delivery). */
  recordAttempt(attempt: DeliveryAttempt): Promise<void>;
  /** The subscription's attempts, newest first; `beforeSeq` pages back. */
  listAttempts(webhookId: string, options: { beforeSeq?: number; limit: number }): Promise<StoredAttempt[]>;
  /**
   * Puts the subscription's failed deliveries created in [since, until) back in the queue, due
   * `now`, with a new round of the retry schedule. Resolves with how many.
   */
  requeueFailed(webhookId: string, options: { since: number; until: number; now: number }): Promise<number>;
  /** Forgets settled deliveries and attempts older than `before` (retention). */
  prune(before: number): Promise<void>;
  close(): Promise<void>;
}
