/**
 * The rate-limit counter port. Adapters: in process (default) and Redis (shared by several API
 * instances); both pass test/contract/rate-limit-store.contract.ts.
 *
 * The algorithm is a sliding window of buckets, fixed here so that every adapter counts alike:
 *
 * - A policy allows `limit` requests per `windowMs`, counted in buckets of `bucketMs`
 *   (`windowMs` a multiple of it). At time `now` the current bucket is `floor(now / bucketMs)`
 *   and the window counts the current bucket and the `windowMs / bucketMs` buckets before it.
 * - Those buckets cover the whole of the last `windowMs` plus at most one bucket more, so the
 *   count never misses a request of the last `windowMs`: no interval of `windowMs` ever holds
 *   more than `limit` admitted requests, at a window edge or anywhere else. The price is that a
 *   request is remembered for up to one bucket longer than the window.
 * - A request is admitted only if every policy has room, and then it counts in every policy.
 *   A refused request counts nowhere, so a client that keeps retrying is served again as soon
 *   as its older requests leave the window.
 */
export const RATE_LIMIT_STORE = Symbol('RateLimitStore');

export interface RateLimitPolicy {
  /** Stable name, shown to clients in the RateLimit headers (e.g. `minute`). */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Counting granularity; `windowMs` must be a multiple of it. */
  readonly bucketMs: number;
}

export interface RateLimitPolicyState {
  readonly policy: RateLimitPolicy;
  /** Requests the subject may still make now under this policy (0 when exhausted). */
  readonly remaining: number;
  /** Milliseconds until every request counted now has left the window (full quota again); 0 if none is counted. */
  readonly resetMs: number;
}

export interface RateLimitDecision {
  readonly allowed: boolean;
  /** When refused: milliseconds until a request would be admitted again; 0 when allowed. */
  readonly retryAfterMs: number;
  /** One entry per policy, in the order given. */
  readonly states: readonly RateLimitPolicyState[];
}

export interface RateLimitStore {
  /**
   * Counts one request of `subject` against all `policies` atomically (never more admitted than
   * the policies allow, however many callers race), or refuses it without counting it.
   * `now` (ms) comes from the caller's clock, so every adapter and test sees the same time.
   * An adapter in this process answers at once, without a promise: every request is counted, and
   * the rate limiter then decides in the same turn, without a promise and an await on every GET.
   * A remote one (Redis) answers with a promise.
   */
  consume(
    subject: string,
    policies: readonly RateLimitPolicy[],
    now: number,
  ): RateLimitDecision | Promise<RateLimitDecision>;
  close(): Promise<void>;
}
