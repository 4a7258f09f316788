import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  assertValidPolicy,
  CLOCK,
  Clock,
  RATE_LIMIT_STORE,
  RateLimitDecision,
  RateLimitPolicy,
  RateLimitPolicyState,
  RateLimitStore,
} from '@app/application';
import type { AppConfig } from '../config';
import { principalOf } from '../http/auth';
import { APP_CONFIG } from '../tokens';
import { clientAddress } from './client-address';

/** The API lives under /v1; what lives outside it (probes, scrapers, API docs) is not limited. */
const LIMITED_PREFIX = '/v1/';
const OUTAGE_WARNING_EVERY_MS = 30_000;

const ADMIN_PREFIX = '/v1/admin/';

type SubjectKind = 'API key' | 'client IP address';

/**
 * The request-rate limits of docs/api.md, Limits, enforced in a Fastify `onRequest` hook: before the
 * body is read and before routing to NestJS, so a flood costs one counter check per request
 * (unknown routes and unauthenticated requests included).
 *
 * Subjects: in production each valid API key counts on its own (the key is resolved here and the
 * auth guard reuses the result), and requests without a valid key count per client IP address;
 * in the sandbox every request counts per client IP address, before authentication.
 *
 * Every limited response carries `RateLimit-Policy` and `RateLimit`; a refusal is a 429 JSON
 * `{ message }` with `Retry-After`. If the counter store fails (Redis unreachable), requests are
 * served unlimited and the outage is logged: rate limiting protects the service, and taking the
 * whole API down with its counters would defeat that.
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger('RateLimits');
  private readonly policies: RateLimitPolicy[];
  private readonly policyHeader: string;
  private readonly perApiKey: boolean;
  private lastOutageWarning = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.policies = rateLimitPolicies(config);
    this.policyHeader = rateLimitPolicyHeader(this.policies);
    this.perApiKey = config.deployment === 'production';
  }

  /**
   * The onRequest hook (registered in http/pipeline.ts): counts the request, or answers 429.
   * Callback style, so that a counter kept in this process is consulted and applied in the same
   * turn: no promise per request unless the store is remote.
   */
  readonly onRequest = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (!request.url.startsWith(LIMITED_PREFIX)) return done();
    // The operator is not an API consumer: provisioning is never refused for a client's burst from
    // the same address. Only the real operator token is exempt; anything else under /v1/admin counts.
    if (request.url.startsWith(ADMIN_PREFIX) && request.credentials?.operator) return done();
    const { subject, kind } = this.subjectOf(request);
    let decision: RateLimitDecision | Promise<RateLimitDecision>;
    try {
      decision = this.store.consume(subject, this.policies, this.clock.now());
    } catch (error) {
      this.reportOutage(error);
      return done();
    }
    if (!(decision instanceof Promise)) return this.apply(decision, kind, reply, done);
    decision.then(
      (decided) => this.apply(decided, kind, reply, done),
      (error: unknown) => {
        this.reportOutage(error);
        done();
      },
    );
  };

  /** Sets the RateLimit headers, then lets the request on, or answers it 429 (and it goes no further). */
  private apply(decision: RateLimitDecision, kind: SubjectKind, reply: FastifyReply, done: () => void): void {
    void reply.header('ratelimit-policy', this.policyHeader).header('ratelimit', rateLimitHeader(decision.states));
    if (decision.allowed) return done();
    const retryAfter = retryAfterSeconds(decision.retryAfterMs);
    const exhausted = decision.states.filter((s) => s.remaining === 0).map((s) => s.policy);
    void reply
      .header('retry-after', String(retryAfter))
      .code(429)
      .send({ message: rateLimitMessage(exhausted, kind, retryAfter) });
  }

  /** An API key's own counter in production (the pipeline resolved the key first); else the client's address. */
  private subjectOf(request: FastifyRequest): { subject: string; kind: SubjectKind } {
    const principal = this.perApiKey ? principalOf(request) : undefined;
    if (principal) return { subject: `key:${principal.keyId}`, kind: 'API key' };
    return { subject: `ip:${clientAddress(request.ip)}`, kind: 'client IP address' };
  }

  private reportOutage(error: unknown) {
    const now = Date.now();
    if (now - this.lastOutageWarning < OUTAGE_WARNING_EVERY_MS) return;
    this.lastOutageWarning = now;
    this.logger.warn(`Rate-limit counters unavailable, serving without limits: ${(error as Error)?.message ?? error}`);
  }
}

// The policies, the headers and the refusal's message.

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
