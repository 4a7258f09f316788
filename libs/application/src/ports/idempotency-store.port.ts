/**
 * The idempotency-record port: what a POST with an `Idempotency-Key` answered, so that a retry
 * gets the same answer without a second effect. Adapters: SQLite (embedded) and MongoDB
 * (scaled); both pass test/contract/idempotency-store.contract.ts.
 *
 * A record is identified by (scope, key): the scope is the caller (one API key), so two callers
 * can never see or block each other's keys. Its life:
 *
 *   claim ──▶ in progress ──complete──▶ completed (replayed until it expires)
 *                  │
 *                  └──release (the request failed: nothing to replay, the key is free again)
 *
 * An in-progress record whose lock has run out (its owner crashed) may be claimed again; an
 * expired record counts as absent. Both are checked against the `now` the caller passes.
 */
export const IDEMPOTENCY_STORE = Symbol('IdempotencyStore');

/** The response kept for replays: status, the headers worth repeating, and the body as sent. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  /** The serialised body (JSON text), or '' for none. */
  body: string;
}

export interface IdempotencyClaim {
  scope: string;
  key: string;
  /** Digest of what the request asked for (method, path, body): a retry must match it. */
  fingerprint: string;
  /** Random token of the request claiming the key; only it may complete or release the record. */
  owner: string;
  now: number;
  /** Until when the claim holds if its owner never completes nor releases it (ms since the epoch). */
  lockedUntil: number;
  /** When the record stops counting (ms since the epoch); a completed record is replayed until then. */
  expiresAt: number;
}

export type ClaimResult =
  /** The caller now owns the key and must run the request, then complete or release. */
  | { outcome: 'claimed' }
  /** Another request holds the key and has not finished. */
  | { outcome: 'in_progress'; fingerprint: string }
  /** The request already ran; its response is to be replayed (when the fingerprint matches). */
  | { outcome: 'completed'; fingerprint: string; response: StoredResponse };

export interface IdempotencyStore {
  /** Atomically claims the key, or reports who has it: at most one caller gets `claimed`. */
  claim(claim: IdempotencyClaim): Promise<ClaimResult>;
  /** Stores the response of the owner's request; false when the owner no longer holds the claim. */
  complete(scope: string, key: string, owner: string, response: StoredResponse): Promise<boolean>;
  /** Frees a key the owner still holds (its request failed and left no effect). */
  release(scope: string, key: string, owner: string): Promise<void>;
  /** Deletes records expired at `now`; returns how many. */
  purgeExpired(now: number): Promise<number>;
  close(): Promise<void>;
}
