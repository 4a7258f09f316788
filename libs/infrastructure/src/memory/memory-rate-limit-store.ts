import { RateLimitDecision, RateLimitPolicy, RateLimitPolicyState, RateLimitStore } from '@app/application/ports';

/** The buckets of one subject under one policy: a ring of `window / bucket + 1` slots. */
interface Ring {
  /** Bucket index held by each slot; a slot whose index fell out of the window counts as empty. */
  readonly bucket: Float64Array;
  readonly count: Uint32Array;
  /** Newest bucket written; "now" never goes behind it for this ring (see consume). */
  newest: number;
  /** Time (ms) from which the ring counts nothing any more and may be dropped. */
  expiresAt: number;
}

export interface MemoryRateLimitStoreOptions {
  /**
   * Most (subject, policy) rings kept. Past it, rings that count nothing are dropped first, then
   * the oldest; dropping a live ring forgets that subject's requests, so keep it well above the
   * number of active subjects (a ring of the 1-minute policy takes about 1 KB).
   */
  maxRings?: number;
  /** How often rings that count nothing are dropped. */
  sweepEveryMs?: number;
}

/**
 * Rate-limit counters in this process (the default, single-instance mode). Implements the
 * sliding window of buckets described by the port; every operation is synchronous inside, so
 * concurrent requests of one subject can never both take the last unit.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly rings = new Map<string, Ring>();
  private readonly maxRings: number;
  private readonly sweeper: NodeJS.Timeout;
  /** The newest `now` callers passed: sweeping follows the callers' clock, not this process's. */
  private lastNow = 0;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.maxRings = options.maxRings ?? 200_000;
    this.sweeper = setInterval(() => this.sweep(), options.sweepEveryMs ?? 30_000);
    this.sweeper.unref();
  }

  async consume(subject: string, policies: readonly RateLimitPolicy[], now: number): Promise<RateLimitDecision> {
    return this.consumeSync(subject, policies, now);
  }

  private consumeSync(subject: string, policies: readonly RateLimitPolicy[], now: number): RateLimitDecision {
    if (now > this.lastNow) this.lastNow = now;
    const rings = policies.map((policy) => this.ring(subject, policy));
    const currents = policies.map((policy, i) => Math.max(Math.floor(now / policy.bucketMs), rings[i].newest));
    const totals = policies.map((policy, i) => total(rings[i], policy, currents[i]));
    const allowed = policies.every((policy, i) => totals[i] < policy.limit);

    if (allowed) {
      policies.forEach((policy, i) => {
        const ring = rings[i];
        const cur = currents[i];
        const slot = cur % ring.bucket.length;
        if (ring.bucket[slot] !== cur) {
          ring.bucket[slot] = cur;
          ring.count[slot] = 0;
        }
        ring.count[slot] += 1;
        ring.newest = cur;
        ring.expiresAt = (cur + policy.windowMs / policy.bucketMs + 1) * policy.bucketMs;
        totals[i] += 1;
      });
    }

    let retryAfterMs = 0;
    const states: RateLimitPolicyState[] = policies.map((policy, i) => {
      const count = totals[i];
      if (!allowed && count >= policy.limit) {
        retryAfterMs = Math.max(retryAfterMs, untilBelowLimit(rings[i], policy, currents[i], count, now));
      }
      return {
        policy,
        remaining: Math.max(0, policy.limit - count),
        resetMs: count === 0 ? 0 : Math.max(0, rings[i].expiresAt - now),
      };
    });
    return { allowed, retryAfterMs, states };
  }

  private ring(subject: string, policy: RateLimitPolicy): Ring {
    const key = `${policy.name}\u0000${subject}`;
    let ring = this.rings.get(key);
    if (!ring) {
      if (this.rings.size >= this.maxRings) this.makeRoom();
      const slots = policy.windowMs / policy.bucketMs + 1;
      ring = {
        bucket: new Float64Array(slots).fill(-Infinity),
        count: new Uint32Array(slots),
        newest: -Infinity,
        expiresAt: 0,
      };
      this.rings.set(key, ring);
    }
    return ring;
  }

  /** Drops rings that count nothing any more. */
  private sweep(): void {
    for (const [key, ring] of this.rings) if (ring.expiresAt <= this.lastNow) this.rings.delete(key);
  }

  private makeRoom(): void {
    this.sweep();
    // Still full: forget the oldest tenth (Map order is insertion order) rather than grow without bound.
    let drop = this.rings.size - Math.floor(this.maxRings * 0.9);
    for (const key of this.rings.keys()) {
      if (drop-- <= 0) break;
      this.rings.delete(key);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.rings.clear();
  }
}

/** Requests counted in the window ending in bucket `cur`: that bucket and the `window / bucket` before it. */
function total(ring: Ring, policy: RateLimitPolicy, cur: number): number {
  const span = policy.windowMs / policy.bucketMs;
  let sum = 0;
  for (let slot = 0; slot < ring.bucket.length; slot++) {
    const bucket = ring.bucket[slot];
    if (bucket >= cur - span && bucket <= cur) sum += ring.count[slot];
  }
  return sum;
}

/** Milliseconds until enough of the oldest buckets leave the window for `count` to drop below the limit. */
function untilBelowLimit(ring: Ring, policy: RateLimitPolicy, cur: number, count: number, now: number): number {
  const span = policy.windowMs / policy.bucketMs;
  let left = count;
  for (let bucket = cur - span; bucket <= cur; bucket++) {
    const slot = bucket % ring.bucket.length;
    if (ring.bucket[slot] !== bucket) continue;
    left -= ring.count[slot];
    // Bucket b is counted while the current bucket is at most b + span.
    if (left < policy.limit) return (bucket + span + 1) * policy.bucketMs - now;
  }
  return policy.windowMs;
}
