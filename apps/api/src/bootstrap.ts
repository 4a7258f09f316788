import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import type { AppConfig } from './config';
import { registerHttpPipeline, requestIdOf } from './http/pipeline';
import { serviceLogger } from './observability/logger';
import { fastifyTrustProxy } from './http/trust-proxy';
import { DEFAULT_REQUEST_BOUNDS, jsonClientErrorHandler, RequestBounds } from './http/request-bounds';
import { publishOpenApi } from './openapi/openapi.module';
import { registerDashboardViews } from './dashboard/dashboard-views';

/** The API's path prefix; probes, metrics and the API docs live outside it. */
const API_PREFIX = 'v1';
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface CreateAppOptions {
  logger?: boolean;
  /** Request size and time bounds (http/request-bounds.ts); tests shorten the timeouts. */
  bounds?: Partial<RequestBounds>;
}

/** Builds the HTTP application (used by main.ts, the tests and the benchmarks). */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const bounds: RequestBounds = { ...DEFAULT_REQUEST_BOUNDS, ...options.bounds };
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdOf,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // Whose X-Forwarded-For names the client in `request.ip` (rate limits per IP, the request log).
    trustProxy: fastifyTrustProxy(config.trustProxy),
    requestTimeout: bounds.requestTimeoutMs,
    http: {
      maxHeaderSize: bounds.maxHeaderBytes,
      headersTimeout: bounds.headersTimeoutMs,
      connectionsCheckingInterval: bounds.timeoutCheckEveryMs,
    },
    clientErrorHandler: jsonClientErrorHandler(bounds),
    // The service has no NestJS middleware (its per-request steps are Fastify hooks, http/pipeline.ts):
    // without @fastify/middie, no request passes an empty middleware chain. A middleware added
    // later fails at start (the adapter has no `use`) rather than being skipped.
    skipMiddie: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: options.logger === false ? false : serviceLogger(config.logLevel),
    bufferLogs: false,
  });
  registerHttpPipeline(app, bounds);
  registerDashboardViews(app);
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      'health',
      'ready',
      'metrics',
      'openapi.json',
      'docs',
      'docs/:asset',
      'dashboard',
      'dashboard/*path',
      'console',
      'console/*path',
    ],
  });
  // A start refused on the way (read models of another event store, say) lets go of what it opened:
  // the stores, their threads and DATA_DIR's projector lock.
  await app.init().catch(async (error: unknown) => {
    await app.close().catch(() => undefined);
    throw error;
  });
  publishOpenApi(app);
  return app;
}
