import type { FastifyInstance } from 'fastify';
import { RequestAuthentication } from '../../../apps/api/src/http/auth';
import { RateLimiter } from '../../../apps/api/src/limits/rate-limiter';
import { logContext } from '../../../apps/api/src/observability/logger';
import { useTestApp } from '../../support/test-app';

/**
 * The dashboard costs the API nothing per request (docs/decisions.md, "The dashboard"): the
 * request hooks of the application end with the pipeline's (apps/api/src/http/pipeline.ts), and
 * nothing registered after it (the template engine's plugin among them) adds one. Fastify keeps
 * them under its `fastify.hooks` symbol, read here for want of a public listing.
 */
describe('The dashboard and the API’s requests', () => {
  const t = useTestApp();

  it('adds no hook to the requests of the API: the last onRequest hooks are the pipeline’s', () => {
    const fastify = t.app.getHttpAdapter().getInstance() as FastifyInstance;
    const symbol = Object.getOwnPropertySymbols(fastify).find((s) => s.description === 'fastify.hooks')!;
    const onRequest = (fastify as unknown as Record<symbol, Record<string, unknown[]>>)[symbol].onRequest;
    const [context, , authentication, rateLimit] = onRequest.slice(-4);
    expect([context, authentication, rateLimit]).toEqual([
      logContext.onRequest,
      t.app.get(RequestAuthentication).onRequest,
      t.app.get(RateLimiter).onRequest,
    ]);
  });
});
