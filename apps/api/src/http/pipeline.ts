import { HttpAdapterHost } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config';
import { Idempotency } from '../limits/idempotency';
import { RateLimiter } from '../limits/rate-limiter';
import { ServiceMetrics } from '../observability/metrics';
import { logContext } from '../observability/logger';
import { requestLogHook } from '../observability/request-log';
import { RequestAuthentication } from './authentication';
import { APP_CONFIG } from '../tokens';
import { conditionalResponses } from './conditional';
import { REQUEST_TIMED_OUT } from './errors';
import { readConsistencyHook } from './read-consistency';
import { answerInTime, boundShutdown, readRefusedBodies, refuseLongUrls, RequestBounds } from './request-bounds';

/**
 * Every Fastify hook of the service, registered here and nowhere else. Hooks of one kind run in
 * the order they are added, and the kinds run in Fastify's order (onRequest, preHandler, the
 * route's guard and handler, preSerialization, onSend, onResponse), so a request meets them as
 * listed:
 *
 * first onRequest, and again first preHandler (a body is read outside the hooks): the log context,
 *   the request id on every line logged on the request's behalf (observability/logger.ts).
 * onRequest
 *   1. refuseLongUrls: an over-long URL is a 414 before anything reads it.
 *   2. authentication: the bearer credential resolved once (the operator's token, or an API key's
 *      check); everything after reads it, nothing else reads the Authorization header.
 *   3. rate limiter: counts the request (per key, or per client IP in the sandbox), else a 429,
 *      before the route spends any work on it; the operator token is exempt.
 * preHandler
 *   4. answerInTime: a handler that overruns answers 503; started before idempotency so that the
 *      wait for a duplicate key's first request counts against the same deadline.
 *   5. idempotency: claims the POST's Idempotency-Key, or replays the stored answer (the handler
 *      then never runs).
 *   (then NestJS: the auth guard, the validation pipe, the controller and its handler)
 * preSerialization
 *   6. conditional responses: a tagged result gets its ETag.
 * onSend
 *   7. answerInTime: the answer is under way; the request's deadline is dropped.
 *   8. conditional responses: an If-None-Match that names the tag turns the answer into a 304.
 *   9. x-request-id on every answer.
 *  10. idempotency: stores the answer under the claimed key, with the headers the hooks above set.
 *  11. read consistency: `X-Read-Consistency: pending` when a write did not see its read models.
 * onResponse
 *  12. request metrics and the request log line.
 * onError (an error answer only, before it is built)
 *  13. request bounds: a body refused as too large is still read, so that its client reads the 413.
 *
 * Called once NestJS has built its providers and before it registers its routes (app.init), so
 * the hooks apply to every route.
 */
export function registerHttpPipeline(app: NestFastifyApplication, bounds: RequestBounds): void {
  const fastify = app.get(HttpAdapterHost).httpAdapter.getInstance<FastifyInstance>();
  const config = app.get<AppConfig>(APP_CONFIG);
  const metrics = app.get(ServiceMetrics);
  const rateLimiter = app.get(RateLimiter);
  const idempotency = app.get(Idempotency);
  const conditional = conditionalResponses();
  const deadline = answerInTime(bounds.handlerTimeoutMs, REQUEST_TIMED_OUT);

  fastify.addHook('preClose', boundShutdown(fastify.server, bounds.shutdownGraceMs));
  fastify.addHook('onRequest', logContext.onRequest);
  fastify.addHook('onRequest', refuseLongUrls(bounds.maxUrlLength));
  fastify.addHook('onRequest', app.get(RequestAuthentication).onRequest);
  fastify.addHook('onRequest', rateLimiter.onRequest);

  fastify.addHook('preHandler', logContext.preHandler);
  fastify.addHook('preHandler', deadline.preHandler);
  fastify.addHook('preHandler', idempotency.preHandler);

  fastify.addHook('onError', readRefusedBodies(bounds.maxRefusedBodyBytes));

  fastify.addHook('preSerialization', conditional.preSerialization);

  fastify.addHook('onSend', deadline.onSend);
  fastify.addHook('onSend', conditional.onSend);
  // Callback style, like the hooks around it: every response passes here, and a promise per hook adds up.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  fastify.addHook('onSend', idempotency.onSend);
  fastify.addHook(
    'onSend',
    readConsistencyHook((route, projection) => metrics.readYourWritesTimeouts.inc({ route, projection })),
  );

  fastify.addHook('onResponse', requestLogHook(metrics, config.logLevel));
}
