import type { FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import pino from 'pino';
import { ServiceMetrics } from './metrics';

/** Where the request log's lines go: a writer of whole lines (stdout by default). */
export interface LineSink {
  write(text: string): unknown;
}

/**
 * Request metrics and one structured JSON log line per request: request id, method, route
 * template, status, duration. Headers and bodies are never logged, so neither are API keys,
 * tokens nor webhook secrets. The onResponse hook, registered in http/pipeline.ts.
 *
 * The line is pino's (`level`, `time`, `service`, the fields, `msg`), built here: its shape is
 * fixed and its fields are the service's own, and `pino.info` with a write per line cost about
 * 13 µs of a 46 µs GET at the default level (docs/benchmarks.md). The lines of one turn of the
 * event loop are written together at its end (`LineBatcher`), so a quiet service still writes
 * each line at once.
 *
 * Callback style, like the other hooks every request passes: an async hook costs a promise per
 * request.
 */
export function requestLogHook(metrics: ServiceMetrics, logLevel: string, sink?: LineSink): onResponseHookHandler {
  // Standard output is opened only when something will be written to it.
  const lines = logsRequests(logLevel) ? (sink ?? stdoutLines()) : undefined;
  return (request, reply, done) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    metrics.httpDuration.observe([request.method, route, statusText(reply.statusCode)], reply.elapsedTime / 1000);
    if (lines && route !== '/metrics' && route !== '/health')
      lines.write(requestLine(request, reply, route, Date.now()));
    done();
  };
}

/** The status code as a label value; the codes the service answers with are made once. */
function statusText(code: number): string {
  return STATUS_TEXT[code] ?? String(code);
}
const STATUS_TEXT: Record<number, string | undefined> = {};
for (let code = 100; code < 600; code++) STATUS_TEXT[code] = String(code);

/** Whether `LOG_LEVEL` logs the request lines, which are written at pino's `info` (30). */
export function logsRequests(logLevel: string): boolean {
  const value = (pino.levels.values as Record<string, number | undefined>)[logLevel];
  return value !== undefined && value <= pino.levels.values.info;
}

/** The request's line, as pino writes `log.info({ req_id, method, route, status, duration_ms }, 'request')`. */
export function requestLine(request: FastifyRequest, reply: FastifyReply, route: string, now: number): string {
  return (
    `{"level":30,"time":${now},"service":"workspace-operations","req_id":${JSON.stringify(request.id)}` +
    `,"method":${JSON.stringify(request.method)},"route":${JSON.stringify(route)},"status":${reply.statusCode}` +
    `,"duration_ms":${Math.round(reply.elapsedTime * 100) / 100},"msg":"request"}\n`
  );
}

/**
 * Lines gathered during one turn of the event loop and written together after it (`setImmediate`):
 * under load, one system call carries the lines of many requests; alone, a line leaves at once.
 * What is pending when the process exits is written then, synchronously.
 */
export class LineBatcher implements LineSink {
  private pending = '';
  private readonly flushNow = () => this.flush();

  constructor(private readonly out: LineSink) {}

  write(text: string): void {
    if (this.pending === '') setImmediate(this.flushNow);
    this.pending += text;
  }

  /** Writes what is pending (also called at exit). */
  flush(): void {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.out.write(text);
  }
}

/**
 * Standard output through pino's synchronous destination (sonic-boom), which retries a pipe that
 * is momentarily full and handles partial writes; one batcher for the process.
 */
function stdoutLines(): LineBatcher {
  if (!stdout) {
    const batcher = new LineBatcher(pino.destination({ dest: process.stdout.fd ?? 1, sync: true }));
    process.once('exit', () => batcher.flush());
    stdout = batcher;
  }
  return stdout;
}
let stdout: LineBatcher | undefined;
