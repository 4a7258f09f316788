import type { onResponseHookHandler } from 'fastify';
import pino from 'pino';
import { LineSink, SERVICE_NAME, stdoutLines } from './logger';
import { ServiceMetrics } from './metrics';
import { principalOf } from '../http/auth';

/**
 * Request metrics and one structured JSON log line per request: request id, method, route
 * template, status, duration, the client's address (`request.ip`: the peer, or the client a
 * trusted proxy names, TRUST_PROXY), and for a valid API key its id and workspace. Headers and
 * bodies are never logged, so neither are API keys, tokens nor webhook secrets. The onResponse
 * hook, registered in http/pipeline.ts.
 *
 * The hook only notes what the line and the metrics need; the requests answered in one turn of
 * the event loop are observed and logged together after it (`RequestRecorder`), so a quiet service
 * still logs each request at once. Done in the hook, request by request between the other
 * requests' work, the same work costs a GET noticeably more CPU (docs/performance.md).
 *
 * The line is pino's (`level`, `time`, `service`, the fields, `msg`), built here: its shape is
 * fixed and its fields are the service's own, and `pino.info` with a write per line costs a
 * sizeable share of a GET at the default level.
 *
 * Callback style, like the other hooks every request passes: an async hook costs a promise per
 * request.
 */
export function requestLogHook(metrics: ServiceMetrics, logLevel: string, sink?: LineSink): onResponseHookHandler {
  // Standard output is opened only when something will be written to it.
  const recorder = new RequestRecorder(metrics, logsRequests(logLevel) ? (sink ?? stdoutLines()) : undefined);
  return (request, reply, done) => {
    const principal = principalOf(request);
    recorder.note(request.id, request.method, request.routeOptions?.url ?? 'unmatched', reply, {
      ip: request.ip,
      keyId: principal?.keyId,
      workspaceId: principal?.workspaceId,
    });
    done();
  };
}

/** Who sent a request, as its log line names them: the client's address; the API key's id and workspace, if valid. */
export interface RequestOrigin {
  ip: string | undefined;
  keyId?: string;
  workspaceId?: string;
}

/**
 * What is noted of each answered request, `FIELDS` to a request: id, method, route, status,
 * duration (ms), time, client address, key id, workspace id (the last three undefined when unknown).
 */
type Noted = (string | number | undefined)[];

/**
 * The requests answered during one turn of the event loop, observed in the metrics and logged
 * after it (`setImmediate`): one write carries the lines of every request of the turn. What is
 * noted when the process exits is recorded then, synchronously.
 */
export class RequestRecorder {
  private noted: Noted = [];
  private readonly flushNow = () => this.flush();

  constructor(
    private readonly metrics: ServiceMetrics,
    /** Where the lines go; none when `LOG_LEVEL` does not log requests. */
    private readonly lines: LineSink | undefined,
  ) {}

  note(
    id: string,
    method: string,
    route: string,
    reply: { statusCode: number; elapsedTime: number },
    origin: RequestOrigin = { ip: undefined },
  ): void {
    if (this.noted.length === 0) {
      setImmediate(this.flushNow);
      recordAtExit(this);
    }
    this.noted.push(
      id,
      method,
      route,
      reply.statusCode,
      reply.elapsedTime,
      Date.now(),
      origin.ip,
      origin.keyId,
      origin.workspaceId,
    );
  }

  /** Records what is noted (also called at exit). */
  flush(): void {
    const noted = this.noted;
    if (noted.length === 0) return;
    this.noted = [];
    unrecorded.delete(this);
    let text = '';
    for (let i = 0; i < noted.length; i += FIELDS) {
      const method = noted[i + 1] as string;
      const route = noted[i + 2] as string;
      const status = noted[i + 3] as number;
      const elapsedMs = noted[i + 4] as number;
      this.metrics.httpDuration.observe({ method, route, status: String(status) }, elapsedMs / 1000);
      if (this.lines && route !== '/metrics' && route !== '/health')
        text += requestLine(noted[i] as string, method, route, status, elapsedMs, noted[i + 5] as number, {
          ip: noted[i + 6] as string | undefined,
          keyId: noted[i + 7] as string | undefined,
          workspaceId: noted[i + 8] as string | undefined,
        });
    }
    if (text !== '') this.lines?.write(text);
  }
}

/** Fields noted per request. */
const FIELDS = 9;

/** Recorders with requests noted and not yet recorded: recorded at exit. */
const unrecorded = new Set<RequestRecorder>();
let recordsAtExit = false;

/** Has `recorder` recorded at exit if it still holds requests then (one listener for the process). */
function recordAtExit(recorder: RequestRecorder): void {
  unrecorded.add(recorder);
  if (recordsAtExit) return;
  recordsAtExit = true;
  process.once('exit', () => {
    for (const pending of unrecorded) pending.flush();
  });
}

/** Whether `LOG_LEVEL` logs the request lines, which are written at pino's `info` (30). */
export function logsRequests(logLevel: string): boolean {
  const value = (pino.levels.values as Record<string, number | undefined>)[logLevel];
  return value !== undefined && value <= pino.levels.values.info;
}

const SERVICE_JSON = JSON.stringify(SERVICE_NAME);

/**
 * The request's line, as pino writes
 * `log.info({ req_id, method, route, status, duration_ms, client_ip, key_id, workspace_id }, 'request')`
 * (a field left undefined is left out, as pino does).
 */
export function requestLine(
  id: string,
  method: string,
  route: string,
  status: number,
  elapsedMs: number,
  now: number,
  origin: RequestOrigin = { ip: undefined },
): string {
  return (
    `{"level":30,"time":${now},"service":${SERVICE_JSON},"req_id":${JSON.stringify(id)}` +
    `,"method":${JSON.stringify(method)},"route":${JSON.stringify(route)},"status":${status}` +
    `,"duration_ms":${Math.round(elapsedMs * 100) / 100}` +
    (origin.ip === undefined ? '' : `,"client_ip":${JSON.stringify(origin.ip)}`) +
    (origin.keyId === undefined ? '' : `,"key_id":${JSON.stringify(origin.keyId)}`) +
    (origin.workspaceId === undefined ? '' : `,"workspace_id":${JSON.stringify(origin.workspaceId)}`) +
    `,"msg":"request"}\n`
  );
}
