import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { ProjectionEngine } from '@app/application';
import { RedisServer } from '../support/redis-server';
import { TestApp, useTestApp } from '../support/test-app';

/** Request-rate limits of docs/api.md, Limits and the resource bounds (docs/limits.md), over real HTTP. */

const RATE_LIMIT = /^"minute";r=(\d+);t=(\d+), "second";r=(\d+);t=(\d+)$/;
const remainingPerMinute = (headers: Headers) => Number(RATE_LIMIT.exec(headers.get('ratelimit') ?? '')?.[1]);

/** A GET sent from a chosen loopback source address, so the service sees another client IP. */
function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(url, { localAddress, headers }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Rate limits in production (defaults: 1000 per minute and 1000 per second, per API key)', () => {
  const t = useTestApp({ DEPLOYMENT: 'production' });

  it('serves 1000 requests of a key within a minute and refuses the 1001st with 429, while another key is served', async () => {
    const busy = await t.provision({ name: 'Busy' });
    const calm = await t.provision({ name: 'Calm' });
    const list = (token: string) => t.request('GET', '/v1/projects', { token });

    const first = await list(busy.fullKey);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"minute";q=1000;w=60, "second";q=1000;w=1');
    // t: seconds until the full quota is back, up to one bucket (1/60 of the window) past it.
    expect(first.headers.get('ratelimit')).toMatch(/^"minute";r=999;t=6[01], "second";r=999;t=[12]$/);

    const statuses: number[] = [first.status];
    while (statuses.length < 1000) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, 1000 - statuses.length) }, () => list(busy.fullKey)),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);

    const refused = await list(busy.fullKey);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      // (the per-second quota is spent too if the 1000 took under a second)
      message: expect.stringMatching(
        /^Rate limit exceeded: at most 1000 requests per minute( and 1000 requests per second)? per API key; retry in \d+ seconds?$/,
      ),
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(61);
    expect(refused.headers.get('ratelimit')).toMatch(/^"minute";r=0;t=6[01], "second";r=\d+;t=[0-2]$/);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);

    // Limits are per key: another workspace's key, and even the busy workspace's other key, are served.
    const other = await list(calm.fullKey);
    expect(other.status).toBe(200);
    expect(remainingPerMinute(other.headers)).toBe(999);
    expect((await list(busy.readKey)).status).toBe(200);
    // The busy key stays refused (refusals are not counted, but its 1000 are still in the window).
    expect((await list(busy.fullKey)).status).toBe(429);
  });

  it('puts the quota on every /v1 response, errors included, and leaves /health unlimited', async () => {
    const ws = await t.provision({ name: 'Headers' });
    const before = remainingPerMinute((await t.request('GET', '/v1/projects', { token: ws.fullKey })).headers);
    const notFound = await t.request('GET', '/v1/projects/prj_missing', { token: ws.fullKey });
    expect(notFound.status).toBe(404);
    expect(remainingPerMinute(notFound.headers)).toBe(before - 1);
    const invalid = await t.request('POST', '/v1/projects', { token: ws.fullKey, body: { name: '' } });
    expect(invalid.status).toBe(400);
    expect(remainingPerMinute(invalid.headers)).toBe(before - 2);
    const health = await t.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('ratelimit')).toBeNull();
    expect(health.headers.get('ratelimit-policy')).toBeNull();
  });
});

describe('Requests without a valid API key in production count per client IP', () => {
  // Small figures keep the test short; what is tested (who counts against what) does not depend on them.
  const t = useTestApp({ DEPLOYMENT: 'production', RATE_LIMIT_PER_MINUTE: '20', RATE_LIMIT_PER_SECOND: '1000' });

  it('limits floods of invalid keys per address, without touching the valid keys', async () => {
    const ws = await t.provision(); // operator requests: not counted against 127.0.0.1
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await t.request('GET', '/v1/projects', { token: `v1_${'x'.repeat(43)}` })).status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(403));
    expect(statuses[20]).toBe(429);
    expect((await t.request('GET', '/v1/projects')).status).toBe(429);
    const valid = await t.request('GET', '/v1/projects', { token: ws.fullKey });
    expect(valid.status).toBe(200);
    expect(remainingPerMinute(valid.headers)).toBe(19);
    // Another address has its own count.
    const elsewhere = await getFrom('127.0.0.2', `${t.baseUrl}/v1/projects`);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers['ratelimit']).toMatch(/^"minute";r=19;/);
  });
});

describe('Rate limits in the sandbox (defaults: 100 per minute and 25 per second, per client IP)', () => {
  const t = useTestApp({ DEPLOYMENT: 'sandbox' });

  it('refuses the 26th request within a second, before authentication, and the 101st within a minute', async () => {
    const ws = await t.provision(); // operator requests: not counted (operators are not API consumers)

    // 30 at once, no key at all: 25 get the authentication error, 5 are refused before it.
    const burst = await Promise.all(Array.from({ length: 30 }, () => t.request('GET', '/v1/projects')));
    expect(burst.filter((r) => r.status === 403)).toHaveLength(25);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    // Retry-After: until the oldest 100 ms bucket of the burst leaves the window, rounded up (1.0-1.1 s).
    const retryAfter = refused[0].headers.get('retry-after');
    expect(['1', '2']).toContain(retryAfter);
    expect(refused[0].body.message).toBe(
      `Rate limit exceeded: at most 25 requests per second per client IP address; retry in ${retryAfter} second${retryAfter === '1' ? '' : 's'}`,
    );
    expect(refused[0].headers.get('ratelimit-policy')).toBe('"minute";q=100;w=60, "second";q=25;w=1');

    // The operator provisions right after the client's burst from the same host: not refused.
    const second = await t.provision({ name: 'Provisioned after a burst' });
    expect(second.workspaceId).toMatch(/^ws_/);

    // Another address is not affected.
    expect(
      (await getFrom('127.0.0.3', `${t.baseUrl}/v1/projects`, { authorization: `Bearer ${ws.fullKey}` })).status,
    ).toBe(200);

    // Paced under 25 per second, the minute fills up: 25 so far, then 25 + 25 + 25 = 100.
    for (const round of [25, 25, 25]) {
      await sleep(1_200);
      const served = await Promise.all(
        Array.from({ length: round }, () => t.request('GET', '/v1/projects', { token: ws.fullKey })),
      );
      expect(served.map((r) => r.status)).toEqual(Array(round).fill(200));
    }
    await sleep(1_200);
    const overMinute = await t.request('GET', '/v1/projects', { token: ws.fullKey });
    expect(overMinute.status).toBe(429);
    expect(overMinute.body.message).toMatch(
      /^Rate limit exceeded: at most 100 requests per minute per client IP address; retry in \d+ seconds$/,
    );
    expect(Number(overMinute.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(overMinute.headers.get('ratelimit')).toMatch(/^"minute";r=0;t=\d+, "second";r=25;t=0$/);
  }, 20_000);
});

describe('Two service instances on one Redis', () => {
  let redis: RedisServer;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await RedisServer.start();
    const env = {
      DEPLOYMENT: 'sandbox',
      RATE_LIMIT_STORE: 'redis',
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: '10',
      RATE_LIMIT_PER_SECOND: '100',
    };
    a = await TestApp.start(env);
    b = await TestApp.start(env);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await redis?.stop();
  });

  it('share one limit: requests to either count against the same quota', async () => {
    const seen: [string, number, number][] = [];
    for (let i = 0; i < 12; i++) {
      const app = i % 2 === 0 ? a : b;
      const res = await app.request('GET', '/v1/projects');
      seen.push([app === a ? 'a' : 'b', res.status, remainingPerMinute(res.headers)]);
    }
    expect(seen).toEqual([
      ['a', 403, 9],
      ['b', 403, 8],
      ['a', 403, 7],
      ['b', 403, 6],
      ['a', 403, 5],
      ['b', 403, 4],
      ['a', 403, 3],
      ['b', 403, 2],
      ['a', 403, 1],
      ['b', 403, 0],
      ['a', 429, 0],
      ['b', 429, 0],
    ]);
  });

  it('serve without limits (and without the headers) while Redis is down, rather than failing', async () => {
    await redis.stop();
    const res = await a.request('GET', '/v1/projects');
    expect(res.status).toBe(403);
    expect(res.headers.get('ratelimit')).toBeNull();
  });
});

describe('Resource bounds', () => {
  const t = useTestApp(
    {},
    {
      bounds: { headersTimeoutMs: 300, requestTimeoutMs: 500, handlerTimeoutMs: 500, timeoutCheckEveryMs: 50 },
    },
  );

  it('refuses request headers over 16 KiB with a JSON 431', async () => {
    const res = await t.request('GET', '/v1/projects', { headers: { 'x-padding': 'p'.repeat(20 * 1024) } });
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ message: 'The request line and headers are too large (at most 16 KiB)' });
  });

  it('answers a HEAD with too large headers with the 431 headers and no body (a client would read it as the next response)', async () => {
    // A JSON body after a HEAD's answer would be read by the client's parser as the next response.
    const raw = (method: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(t.baseUrl).port), '127.0.0.1', () => {
          socket.write(`${method} /v1/projects HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(20 * 1024)}\r\n\r\n`);
        });
        let data = '';
        socket.on('data', (chunk) => (data += chunk));
        socket.on('close', () => resolve(data));
        socket.on('error', reject);
      });
    const [head, get] = await Promise.all([raw('HEAD'), raw('GET')]);
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    const [headHeaders, headBody] = head.split('\r\n\r\n');
    expect(headBody).toBe('');
    // The same headers as the GET's answer, Content-Length included; the GET's has the body.
    expect(headHeaders).toBe(get.split('\r\n\r\n')[0]);
    expect(JSON.parse(get.split('\r\n\r\n')[1]).message).toMatch(/too large/);
  });

  it('answers an upload over 1 MiB with a 413 its client reads while still sending, and keeps the connection', async () => {
    // Answering 413 from the Content-Length and closing with the body unread would make the
    // client's next write meet a reset (EPIPE) before it read the answer.
    const ws = await t.provision();
    const declared = 1024 * 1024 + 10;
    const socket = connect(Number(new URL(t.baseUrl).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    const until = async (done: () => boolean) => {
      for (let waited = 0; !done(); waited += 10) {
        if (waited > 5_000 || socket.destroyed)
          throw new Error(`no answer; received: ${JSON.stringify(data.slice(0, 300))}`);
        await sleep(10);
      }
    };
    const written = (chunk: string) =>
      new Promise<void>((resolve, reject) => socket.write(chunk, (error) => (error ? reject(error) : resolve())));
    const body = `{"name":"${'x'.repeat(declared - 11)}"}`;
    expect(body.length).toBe(declared);
    await written(
      `POST /v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ws.fullKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n${body.slice(0, 64 * 1024)}`,
    );
    await until(() => data.includes('"message"'));
    expect(data).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(data).not.toMatch(/\r\nconnection: close\r\n/i);
    await sleep(100); // a client still sending when the answer comes
    await written(body.slice(64 * 1024));
    const before = data.length;
    await written(`GET /v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ws.fullKey}\r\n\r\n`);
    await until(() => data.slice(before).includes('"count"'));
    expect(data.slice(before)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    socket.destroy();

    // Past 8 MiB, reading the upload to the end is not worth it: the connection is closed.
    const huge = await new Promise<string>((resolve, reject) => {
      const other = connect(Number(new URL(t.baseUrl).port), '127.0.0.1', () => {
        other.write(
          `POST /v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ws.fullKey}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${9 * 1024 * 1024}\r\n\r\n{"name":"`,
        );
      });
      let answer = '';
      other.on('data', (chunk) => (answer += chunk));
      other.on('close', () => resolve(answer));
      other.on('error', reject);
    });
    expect(huge).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
    expect(huge).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('refuses URLs over 4096 characters with a JSON 414, and does not echo long unknown paths whole', async () => {
    const long = await t.request('GET', `/v1/projects?cursor=${'c'.repeat(5000)}`);
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ message: 'The URL is too long (at most 4096 characters)' });
    const ws = await t.provision();
    const unknown = await t.request('GET', `/v1/${'x'.repeat(3000)}`, { token: ws.fullKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message.length).toBeLessThan(300);
  });

  it('answers a request whose body never finishes arriving with a JSON 408', async () => {
    const response = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(t.baseUrl).port), '127.0.0.1', () => {
        socket.write(
          'POST /v1/projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
        );
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(response).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(response.split('\r\n\r\n')[1])).toEqual({
      message: 'The request was not received in time (headers within 0.3 s, all of it within 0.5 s)',
    });
  });

  it('answers 503 JSON with Retry-After when handling takes longer than the request timeout', async () => {
    const ws = await t.provision();
    // Stalled projections: a write waits for its read models, past the (here 0.5 s) timeout.
    await t.app.get(ProjectionEngine).stop();
    const res = await t.request('POST', '/v1/projects', {
      token: ws.fullKey,
      body: { name: 'Slow', description: 'd', status: 'planned', start_date: '2026-12-01' },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body.message).toMatch(/did not finish in time and may still take effect/);
  });

  it('lets a POST holding an Idempotency-Key finish instead of answering 503, so its outcome can be replayed', async () => {
    const engine = t.app.get(ProjectionEngine);
    await engine.start(); // stopped by the test before
    const ws = await t.provision();
    await engine.stop();
    const send = () =>
      t.request('POST', '/v1/projects', {
        token: ws.fullKey,
        body: { name: 'Slow but sure', description: 'd', status: 'planned', start_date: '2026-12-01' },
        headers: { 'idempotency-key': 'slow-1' },
      });
    const started = Date.now();
    const pending = send();
    setTimeout(() => void engine.start(), 1_000); // projections resume after twice the timeout
    const res = await pending;
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const retry = await send();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(res.body);
  });
});

describe('Shutdown with a connection that never finishes its request', () => {
  it('closes the connections still open after the grace, instead of waiting for their clients', async () => {
    const t = await TestApp.start({}, undefined, { bounds: { shutdownGraceMs: 500 } });
    // Headers begun and never finished: not an idle connection, which closing would end at once,
    // nor a request Fastify is handling; Node would wait for its headers timeout (15 s here).
    const socket = connect(Number(new URL(t.baseUrl).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /v1/projects HTTP/1.1\r\nHost: x\r\n');
    const closedByServer = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await t.stop();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(5_000);
    await closedByServer;
  });
});
