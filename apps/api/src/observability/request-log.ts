import type { onResponseHookHandler } from 'fastify';
import pino from 'pino';
import { ServiceMetrics } from './metrics';

/**
 * Request metrics and one structured JSON log line per request (pino): request id, method,
 * route template, status, duration. Headers and bodies are never logged, so neither are API
 * keys, tokens nor webhook secrets. The onResponse hook, registered in http/pipeline.ts.
 *
 * Callback style, like the other hooks every request passes: an async hook costs a promise per
 * request. The log line's fields are only gathered when the level logs it.
 */
export function requestLogHook(metrics: ServiceMetrics, logLevel: string): onResponseHookHandler {
  const log = pino({ base: { service: 'workspace-operations' }, level: logLevel });
  const logs = log.isLevelEnabled('info');
  return (request, reply, done) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    if (logs && route !== '/metrics' && route !== '/health')
      log.info(
        {
          req_id: request.id,
          method: request.method,
          route,
          status: reply.statusCode,
          duration_ms: Math.round(reply.elapsedTime * 100) / 100,
        },
        'request',
      );
    done();
  };
}
