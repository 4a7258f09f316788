import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { LineBatcher, logsRequests, requestLine, requestLogHook } from './request-log';
import { ServiceMetrics } from './metrics';

const request = (id: string) =>
  ({ id, method: 'GET', routeOptions: { url: '/v1/projects/:projectId' } }) as FastifyRequest;
const reply = { statusCode: 200, elapsedTime: 1.23456 } as FastifyReply;

/** What pino itself writes for the same call, with the same options the log had. */
function pinoLine(id: string, now: number): string {
  let out = '';
  const log = pino(
    { base: { service: 'workspace-operations' }, timestamp: () => `,"time":${now}` },
    new Writable({
      write(chunk, _encoding, done) {
        out += String(chunk);
        done();
      },
    }),
  );
  log.info({ req_id: id, method: 'GET', route: '/v1/projects/:projectId', status: 200, duration_ms: 1.23 }, 'request');
  return out;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Runs the onResponse hook for a request to `url`, as Fastify would. */
function respond(hook: ReturnType<typeof requestLogHook>, url: string): Promise<void> {
  const run = hook as unknown as (request: unknown, reply: unknown, done: () => void) => void;
  return new Promise((resolve) => run({ id: 'r', method: 'GET', routeOptions: { url } }, reply, resolve));
}

describe('the request log', () => {
  it('writes the line pino writes, field for field and in order', async () => {
    for (const id of ['trace-log-1', 'a "quoted" \\ id\u2028']) {
      const ours = requestLine(request(id), reply, '/v1/projects/:projectId', 1_795_000_000_000);
      expect(ours).toBe(pinoLine(id, 1_795_000_000_000));
      expect(JSON.parse(ours)).toMatchObject({ req_id: id, status: 200, duration_ms: 1.23, msg: 'request' });
    }
  });

  it('logs at info and below, not at warn and above nor when silent', () => {
    expect(['trace', 'debug', 'info'].map(logsRequests)).toEqual([true, true, true]);
    expect(['warn', 'error', 'fatal', 'silent', 'nonsense'].map(logsRequests)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('gathers the lines of one turn into one write, and writes a line alone in the next turn', async () => {
    const writes: string[] = [];
    const batcher = new LineBatcher({ write: (text: string) => writes.push(text) });
    batcher.write('a\n');
    batcher.write('b\n');
    batcher.write('c\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n']);

    batcher.write('d\n');
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes what is pending at once when flushed (as at exit), and only once', async () => {
    const writes: string[] = [];
    const batcher = new LineBatcher({ write: (text: string) => writes.push(text) });
    batcher.write('a\n');
    batcher.flush();
    expect(writes).toEqual(['a\n']);
    await nextTurn();
    expect(writes).toEqual(['a\n']);
  });

  it('records every request in the metrics, and logs all but the probes and metrics', async () => {
    const metrics = new ServiceMetrics();
    const lines: string[] = [];
    const hook = requestLogHook(metrics, 'info', { write: (line: string) => lines.push(line) });
    await respond(hook, '/v1/projects/:projectId');
    await respond(hook, '/health');
    await respond(hook, '/metrics');
    expect(lines.map((line) => JSON.parse(line).route)).toEqual(['/v1/projects/:projectId']);
    expect(await metrics.registry.getSingleMetricAsString('http_request_duration_seconds')).toContain(
      'http_request_duration_seconds_count{method="GET",route="/health",status="200"} 1',
    );

    const quiet: string[] = [];
    await respond(requestLogHook(metrics, 'warn', { write: (line: string) => quiet.push(line) }), '/v1/projects');
    expect(quiet).toEqual([]);
  });
});
