import { RateLimitPolicy } from '../ports/rate-limit-store.port';

/** Checks the invariants the adapters rely on; call once when policies are built. */
export function assertValidPolicy(policy: RateLimitPolicy): void {
  const { name, limit, windowMs, bucketMs } = policy;
  if (!/^[a-z][a-z0-9_-]*$/.test(name))
    throw new Error(`Rate-limit policy name must be a lowercase token (got "${name}")`);
  if (!Number.isInteger(limit) || limit <= 0)
    throw new Error(`Rate-limit policy ${name}: limit must be a positive integer`);
  if (!Number.isInteger(bucketMs) || bucketMs <= 0)
    throw new Error(`Rate-limit policy ${name}: bucketMs must be a positive integer`);
  if (!Number.isInteger(windowMs) || windowMs < bucketMs || windowMs % bucketMs !== 0) {
    throw new Error(`Rate-limit policy ${name}: windowMs must be a positive multiple of bucketMs`);
  }
}
