import pino from 'pino';
import { Writable } from 'node:stream';
import { logsRequests, RequestRecorder, requestLine, requestLogHook } from './request-log';
import { ServiceMetrics } from './metrics';

const reply = { statusCode: 200, elapsedTime: 1.23456 };

/** What pino itself writes for the same call, with the same options the log had. */
function pinoLine(id: string, now: number, origin: Record<string, string> = {}): string {
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
  log.info(
    { req_id: id, method: 'GET', route: '/v1/projects/:projectId', status: 200, duration_ms: 1.23, ...origin },
    'request',
  );
  return out;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** The request count the metrics hold for `GET <route>` answered 200, if any. */
async function count(metrics: ServiceMetrics, route: string): Promise<string | undefined> {
  const text = await metrics.registry.getSingleMetricAsString('http_request_duration_seconds');
  return text.match(new RegExp(`_count\\{method="GET",route="${route}",status="200"\\} (\\d+)`))?.[1];
}

/** Runs the onResponse hook for a request to `url`, as Fastify would. */
function respond(hook: ReturnType<typeof requestLogHook>, url: string): Promise<void> {
  const run = hook as unknown as (request: unknown, reply: unknown, done: () => void) => void;
  return new Promise((resolve) => run({ id: 'r', method: 'GET', routeOptions: { url } }, reply, resolve));
}

describe('the request log', () => {
  it('writes the line pino writes, field for field and in order', async () => {
    for (const id of ['trace-log-1', 'a "quoted" \\ id\u2028']) {
      const ours = requestLine(id, 'GET', '/v1/projects/:projectId', 200, 1.23456, 1_795_000_000_000);
      expect(ours).toBe(pinoLine(id, 1_795_000_000_000));
      expect(JSON.parse(ours)).toMatchObject({ req_id: id, status: 200, duration_ms: 1.23, msg: 'request' });
    }
  });

  it("names the client's address, and the API key and workspace of an authenticated request, as pino would", () => {
    const now = 1_795_000_000_000;
    const origin = { ip: '203.0.113.7', keyId: 'key_1', workspaceId: 'ws_1' };
    expect(requestLine('r', 'GET', '/v1/projects/:projectId', 200, 1.23456, now, origin)).toBe(
      pinoLine('r', now, { client_ip: '203.0.113.7', key_id: 'key_1', workspace_id: 'ws_1' }),
    );
    expect(requestLine('r', 'GET', '/v1/projects/:projectId', 200, 1.23456, now, { ip: '::1' })).toBe(
      pinoLine('r', now, { client_ip: '::1' }),
    );
  });

  it("takes the address from request.ip and the key from the request's credentials, never the key itself", async () => {
    const lines: string[] = [];
    const hook = requestLogHook(new ServiceMetrics(), 'info', { write: (line: string) => lines.push(line) });
    const run = hook as unknown as (request: unknown, reply: unknown, done: () => void) => void;
    const principal = { keyId: 'key_1', keyName: 'Ops bot', workspaceId: 'ws_1' };
    const authenticated = {
      id: 'a',
      method: 'GET',
      routeOptions: { url: '/v1/projects' },
      ip: '198.51.100.4',
      credentials: { presented: 'v1_secret', operator: false, apiKey: { ok: true, principal } },
    };
    const anonymous = { id: 'b', method: 'GET', routeOptions: { url: '/v1/projects' }, ip: '198.51.100.5' };
    await new Promise<void>((resolve) => run(authenticated, reply, resolve));
    await new Promise<void>((resolve) => run(anonymous, reply, resolve));
    await nextTurn();
    const entries = lines
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(entries[0]).toMatchObject({ client_ip: '198.51.100.4', key_id: 'key_1', workspace_id: 'ws_1' });
    expect(entries[1].client_ip).toBe('198.51.100.5');
    expect(entries[1]).not.toHaveProperty('key_id');
    expect(entries[1]).not.toHaveProperty('workspace_id');
    expect(lines.join('')).not.toContain('v1_secret');
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

  it('records the requests of one turn after it, their lines in one write, and a request alone in the next turn', async () => {
    const metrics = new ServiceMetrics();
    const writes: string[] = [];
    const recorder = new RequestRecorder(metrics, { write: (text: string) => writes.push(text) });
    for (const id of ['a', 'b', 'c']) recorder.note(id, 'GET', '/v1/projects', reply);
    expect(writes).toEqual([]);
    expect(await count(metrics, '/v1/projects')).toBeUndefined();
    await nextTurn();
    expect(writes).toHaveLength(1);
    expect(writes[0].split('\n').map((line) => line && JSON.parse(line).req_id)).toEqual(['a', 'b', 'c', '']);
    expect(await count(metrics, '/v1/projects')).toBe('3');

    recorder.note('d', 'GET', '/v1/projects', reply);
    await nextTurn();
    expect(writes.map((text) => JSON.parse(text.split('\n')[0]).req_id)).toEqual(['a', 'd']);
    expect(await count(metrics, '/v1/projects')).toBe('4');
  });

  it('records what is noted at once when flushed (as at exit), and only once', async () => {
    const metrics = new ServiceMetrics();
    const writes: string[] = [];
    const recorder = new RequestRecorder(metrics, { write: (text: string) => writes.push(text) });
    recorder.note('a', 'GET', '/v1/projects', reply);
    recorder.flush();
    expect(writes).toHaveLength(1);
    await nextTurn();
    expect(writes).toHaveLength(1);
    expect(await count(metrics, '/v1/projects')).toBe('1');
  });

  it('records every request in the metrics, and logs all but the probes and metrics', async () => {
    const metrics = new ServiceMetrics();
    const lines: string[] = [];
    const hook = requestLogHook(metrics, 'info', { write: (line: string) => lines.push(line) });
    await respond(hook, '/v1/projects/:projectId');
    await respond(hook, '/health');
    await respond(hook, '/metrics');
    await nextTurn();
    expect(lines.map((line) => JSON.parse(line).route)).toEqual(['/v1/projects/:projectId']);
    expect(await metrics.registry.getSingleMetricAsString('http_request_duration_seconds')).toContain(
      'http_request_duration_seconds_count{method="GET",route="/health",status="200"} 1',
    );

    const quiet: string[] = [];
    await respond(requestLogHook(metrics, 'warn', { write: (line: string) => quiet.push(line) }), '/v1/projects');
    await nextTurn();
    expect(quiet).toEqual([]);
    expect(await count(metrics, '/v1/projects')).toBe('1');
  });
});
