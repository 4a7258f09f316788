import type { onResponseAsyncHookHandler } from 'fastify';
import pino from 'pino';
import { ServiceMetrics } from './metrics';

/**
 * Request metrics and one structured JSON log line per request (pino): request id, method,
 * route template, status, duration. Headers and bodies are never logged, so neither are API
 * keys, tokens nor webhook secrets. The onResponse hook, registered in http/pipeline.ts.
 */
export function requestLogHook(metrics: ServiceMetrics, logLevel: string): onResponseAsyncHookHandler {
  const log = pino({ base: { service: 'workspace-operations' }, level: logLevel });
  return async (request, reply) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, seconds);
    if (route === '/metrics' || route === '/health') return;
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
  };
}
