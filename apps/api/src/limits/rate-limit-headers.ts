import { assertValidPolicy, RateLimitPolicy, RateLimitPolicyState } from '@app/application';
import type { AppConfig } from '../config';

/**
 * The two policies of docs/api.md, Limits, with their figures from the configuration
 * (RATE_LIMIT_PER_MINUTE / RATE_LIMIT_PER_SECOND; the defaults follow DEPLOYMENT).
 * Bucket widths are 1/60 of the window: the count is exact to within one bucket (see the port).
 */
export function rateLimitPolicies(
  config: Pick<AppConfig, 'rateLimitPerMinute' | 'rateLimitPerSecond'>,
): RateLimitPolicy[] {
  const policies: RateLimitPolicy[] = [
    { name: 'minute', limit: config.rateLimitPerMinute, windowMs: 60_000, bucketMs: 1_000 },
    { name: 'second', limit: config.rateLimitPerSecond, windowMs: 1_000, bucketMs: 100 },
  ];
  policies.forEach(assertValidPolicy);
  return policies;
}

/**
 * `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers, a structured-field list): each policy
 * by name with its quota `q` and window `w` in seconds, e.g. `"minute";q=1000;w=60, "second";q=1000;w=1`.
 * The same for every response of a deployment, so it is built once.
 */
export function rateLimitPolicyHeader(policies: readonly RateLimitPolicy[]): string {
  return policies.map((p) => `"${p.name}";q=${p.limit};w=${p.windowMs / 1000}`).join(', ');
}

/**
 * `RateLimit`: per policy the remaining quota `r` and `t`, the seconds until the full quota is
 * back (every request now counted has left the window), e.g. `"minute";r=998;t=60, "second";r=999;t=1`.
 * A client that spreads `r` requests over `t` seconds is never refused.
 */
export function rateLimitHeader(states: readonly RateLimitPolicyState[]): string {
  return states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${Math.ceil(s.resetMs / 1000)}`).join(', ');
}

/** Retry-After in whole seconds, at least 1 (a client told 0 would retry in a tight loop). */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

const WINDOW_WORDS: Record<number, string> = { 1_000: 'second', 60_000: 'minute' };

/** `Rate limit exceeded: at most 25 requests per second per client IP address; retry in 1 second` */
export function rateLimitMessage(
  exhausted: readonly RateLimitPolicy[],
  subject: 'API key' | 'client IP address',
  retryAfter: number,
): string {
  const limits = exhausted
    .map((p) => `${p.limit} requests per ${WINDOW_WORDS[p.windowMs] ?? `${p.windowMs / 1000} seconds`}`)
    .join(' and ');
  return `Rate limit exceeded: at most ${limits} per ${subject}; retry in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`;
}
