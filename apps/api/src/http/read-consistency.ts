import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsistencyRequest } from './request-context.decorator';

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
export function readConsistencyHook(count: (route: string, projection: string) => void) {
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
