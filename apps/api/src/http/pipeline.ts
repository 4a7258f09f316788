import { HttpAdapterHost } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../config';
import { Idempotency } from '../limits/idempotency';
import { RateLimiter } from '../limits/rate-limiter';
import { ServiceMetrics } from '../observability/metrics';
import { logContext } from '../observability/logger';
import { requestLogHook } from '../observability/request-log';
import { ConsistencyRequest, RequestAuthentication } from './auth';
import { APP_CONFIG } from '../tokens';
import { conditionalResponses } from './conditional';
import { REQUEST_TIMED_OUT } from './errors';
import { answerInTime, boundShutdown, readRefusedBodies, refuseLongUrls, RequestBounds } from './request-bounds';

/**
 * Every Fastify hook of the service, registered here and nowhere else. Hooks of one kind run in
 * the order they are added, and the kinds run in Fastify's order (onRequest, preHandler, the
 * route's guard and handler, preSerialization, onSend, onResponse), so a request meets them as
 * listed:
 *
 * before any hook: the request id (`requestIdOf` below, the adapter's `genReqId`, given to it by
 *   bootstrap.ts).
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
 *   5. idempotency, POST routes only: claims the Idempotency-Key, or replays the stored answer
 *      (the handler then never runs).
 *   (then NestJS: the auth guard, the validation pipe, the controller and its handler)
 * preSerialization
 *   6. conditional responses: a tagged result gets its ETag.
 * onSend
 *   7. answerInTime: the answer is under way; the request's deadline is dropped.
 *   8. conditional responses: an If-None-Match that names the tag turns the answer into a 304.
 *   9. x-request-id on every answer.
 *  10. read consistency: `X-Read-Consistency: pending` when a write did not see its read models.
 *  11. idempotency, POST routes only: stores the answer under the claimed key, with the headers
 *      the hooks above set.
 * onResponse
 *  12. request metrics and the request log line.
 * onError (an error answer only, before it is built)
 *  13. request bounds: a body refused as too large is still read, so that its client reads the 413.
 *
 * Idempotency concerns POST only, so its two hooks are the route's own hooks of each POST route
 * (added as the route is registered, `onRoute`); route hooks run after the application's hooks
 * of the same kind, hence its place in the lists above. Other routes never meet them.
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

  fastify.addHook('onRoute', (route) => {
    if (isPost(route)) {
      route.preHandler = [...hookList(route.preHandler), idempotency.preHandler];
      route.onSend = [...hookList(route.onSend), idempotency.onSend];
    }
  });
  fastify.addHook('preClose', boundShutdown(fastify.server, bounds.shutdownGraceMs));
  fastify.addHook('onRequest', logContext.onRequest);
  fastify.addHook('onRequest', refuseLongUrls(bounds.maxUrlLength));
  fastify.addHook('onRequest', app.get(RequestAuthentication).onRequest);
  fastify.addHook('onRequest', rateLimiter.onRequest);

  fastify.addHook('preHandler', logContext.preHandler);
  fastify.addHook('preHandler', deadline.preHandler);

  fastify.addHook('onError', readRefusedBodies(bounds.maxRefusedBodyBytes));

  fastify.addHook('preSerialization', conditional.preSerialization);

  fastify.addHook('onSend', deadline.onSend);
  fastify.addHook('onSend', conditional.onSend);
  // Callback style, like the hooks around it: every response passes here, and a promise per hook adds up.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  fastify.addHook(
    'onSend',
    readConsistencyHook((route, projection) => metrics.readYourWritesTimeouts.inc({ route, projection })),
  );

  fastify.addHook('onResponse', requestLogHook(metrics, config.logLevel));
}

const isPost = (route: RouteOptions) =>
  Array.isArray(route.method) ? route.method.includes('POST') : route.method === 'POST';

/** A route option's hooks as a list (Fastify takes one function or an array). */
const hookList = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id (Fastify's `genReqId`): a caller's `x-request-id` when it is a sane token, else a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Read-your-writes that never lies: a write answers once the read models serving its resource
 * show it. When they did not in time (a projection stalled, or it parked an event of the
 * resource), the write is still committed and answered as usual, with this header saying the
 * next GET may not show it yet (docs/limits.md). Absent when the read models showed the write.
 */
export const READ_CONSISTENCY_HEADER = 'x-read-consistency';
export const READ_CONSISTENCY_PENDING = 'pending';

/**
 * onSend hook (callback style: every response passes here): sets the header and hands the
 * projections that did not show the request's writes to `count`.
 */
function readConsistencyHook(count: (route: string, projection: string) => void) {
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: null, value: unknown) => void,
  ) => {
    const pending = (request as FastifyRequest & ConsistencyRequest).readConsistency?.pending;
    if (pending && pending.length > 0) {
      reply.header(READ_CONSISTENCY_HEADER, READ_CONSISTENCY_PENDING);
      const route = request.routeOptions?.url ?? 'unmatched';
      for (const projection of new Set(pending)) count(route, projection);
      // Once per request, even if a later hook makes Fastify send another response.
      pending.length = 0;
    }
    done(null, payload);
  };
}
