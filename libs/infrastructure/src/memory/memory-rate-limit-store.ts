import { RateLimitDecision, RateLimitPolicy, RateLimitPolicyState, RateLimitStore } from '@app/application/ports';

/** The buckets of one subject under one policy: a ring of `window / bucket + 1` slots. */
interface Ring {
  readonly policy: string;
  /** Bucket index held by each slot; a slot whose index fell out of the window counts as empty. */
  readonly bucket: Float64Array;
  readonly count: Uint32Array;
  /** Newest bucket the ring has been brought to; "now" never goes behind it for this ring (see consume). */
  newest: number;
  /** Requests counted in the window ending in bucket `newest`, kept as buckets enter and leave it. */
  total: number;
  /** Time (ms) from which the ring counts nothing any more and may be dropped. */
  expiresAt: number;
}

export interface MemoryRateLimitStoreOptions {
  /**
   * Most (subject, policy) rings kept. Past it, subjects whose rings count nothing are dropped
   * first, then the oldest subjects; dropping a live one forgets its requests, so keep it well
   * above the number of active subjects (a ring of the 1-minute policy takes about 1 KB).
   */
  maxRings?: number;
  /** How often subjects whose rings count nothing are dropped. */
  sweepEveryMs?: number;
}

/**
 * Rate-limit counters in this process (the default, single-instance mode). Implements the
 * sliding window of buckets described by the port; every operation is synchronous inside, so
 * concurrent requests of one subject can never both take the last unit.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  /** By subject, its ring for each policy it has been counted under: one lookup per request. */
  private readonly subjects = new Map<string, Ring[]>();
  /** Rings held over all subjects (what `maxRings` bounds). */
  private ringCount = 0;
  private readonly maxRings: number;
  private readonly sweeper: NodeJS.Timeout;
  /** The newest `now` callers passed: sweeping follows the callers' clock, not this process's. */
  private lastNow = 0;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.maxRings = options.maxRings ?? 200_000;
    this.sweeper = setInterval(() => this.sweep(), options.sweepEveryMs ?? 30_000);
    this.sweeper.unref();
  }

  /** (subject, policy) rings held now. */
  get size(): number {
    return this.ringCount;
  }

  /**
   * Synchronous (the port allows it for an adapter in the process). O(1) per policy: each ring
   * keeps its window's total as buckets enter and leave it, instead of summing the window's slots
   * on every request (61 for the minute policy).
   */
  consume(subject: string, policies: readonly RateLimitPolicy[], now: number): RateLimitDecision {
    if (now > this.lastNow) this.lastNow = now;
    const rings = this.ringsOf(subject, policies);
    let allowed = true;
    for (let i = 0; i < policies.length; i++) {
      advance(rings[i], policies[i], now);
      if (rings[i].total >= policies[i].limit) allowed = false;
    }

    if (allowed) {
      for (let i = 0; i < policies.length; i++) {
        const policy = policies[i];
        const ring = rings[i];
        const cur = ring.newest;
        const slot = cur % ring.bucket.length;
        if (ring.bucket[slot] !== cur) {
          ring.bucket[slot] = cur;
          ring.count[slot] = 0;
        }
        ring.count[slot] += 1;
        ring.total += 1;
        ring.expiresAt = (cur + policy.windowMs / policy.bucketMs + 1) * policy.bucketMs;
      }
    }

    let retryAfterMs = 0;
    const states: RateLimitPolicyState[] = [];
    for (let i = 0; i < policies.length; i++) {
      const policy = policies[i];
      const ring = rings[i];
      const count = ring.total;
      if (!allowed && count >= policy.limit) {
        retryAfterMs = Math.max(retryAfterMs, untilBelowLimit(ring, policy, ring.newest, count, now));
      }
      states.push({
        policy,
        remaining: Math.max(0, policy.limit - count),
        resetMs: count === 0 ? 0 : Math.max(0, ring.expiresAt - now),
      });
    }
    return { allowed, retryAfterMs, states };
  }

  /** The subject's ring for each policy, in the order given (made on first use). */
  private ringsOf(subject: string, policies: readonly RateLimitPolicy[]): Ring[] {
    let held = this.subjects.get(subject);
    if (!held) {
      held = [];
      this.subjects.set(subject, held);
    }
    const rings: Ring[] = [];
    for (const policy of policies) {
      let ring = held.find((r) => r.policy === policy.name);
      if (!ring) {
        if (this.ringCount >= this.maxRings) this.makeRoom(held);
        const slots = policy.windowMs / policy.bucketMs + 1;
        ring = {
          policy: policy.name,
          bucket: new Float64Array(slots).fill(-Infinity),
          count: new Uint32Array(slots),
          newest: -Infinity,
          total: 0,
          expiresAt: 0,
        };
        held.push(ring);
        this.ringCount += 1;
      }
      rings.push(ring);
    }
    return rings;
  }

  /** Drops subjects whose rings all count nothing any more (never `keep`, the one being counted). */
  private sweep(keep?: Ring[]): void {
    for (const [subject, held] of this.subjects) {
      if (held !== keep && held.every((ring) => ring.expiresAt <= this.lastNow)) this.drop(subject, held);
    }
  }

  private makeRoom(keep: Ring[]): void {
    this.sweep(keep);
    // Still full: forget the oldest subjects (Map order is insertion order) until a tenth of the
    // rings is free, rather than grow without bound.
    for (const [subject, held] of this.subjects) {
      if (this.ringCount <= Math.floor(this.maxRings * 0.9)) break;
      if (held !== keep) this.drop(subject, held);
    }
  }

  private drop(subject: string, held: Ring[]): void {
    this.subjects.delete(subject);
    this.ringCount -= held.length;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.subjects.clear();
    this.ringCount = 0;
  }
}

/**
 * Brings the ring to the bucket of `now` (never behind `newest`): the buckets that leave the
 * window ending there are taken off its total; at most one pass over the ring, however long the gap.
 */
function advance(ring: Ring, policy: RateLimitPolicy, now: number): void {
  const cur = Math.max(Math.floor(now / policy.bucketMs), ring.newest);
  if (cur === ring.newest) return;
  if (ring.newest !== -Infinity) {
    const span = policy.windowMs / policy.bucketMs;
    // The old window is newest - span .. newest, the new one cur - span .. cur: what leaves is
    // newest - span .. min(newest, cur - span - 1), of which only the last span + 1 can be held.
    const last = Math.min(ring.newest, cur - span - 1);
    for (let b = Math.max(ring.newest - span, last - span); b <= last; b++) {
      const slot = b % ring.bucket.length;
      if (ring.bucket[slot] === b) ring.total -= ring.count[slot];
    }
  }
  ring.newest = cur;
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
