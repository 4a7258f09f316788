import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Bounds on what one request may cost, each answered with a JSON `{ message }` 4xx (or 503 when
 * the service itself is too slow), never a dropped connection or a 5xx:
 *
 * | bound                     | default         | answer                        |
 * |---------------------------|-----------------|-------------------------------|
 * | body size                 | 1 MiB           | 413 (Fastify `bodyLimit`)     |
 * | refused body still read   | 8 MiB           | (hook below; then closed)     |
 * | request line + headers    | 16 KiB          | 431 (Node `maxHeaderSize`)    |
 * | URL length                | 4096 characters | 414 (hook below)              |
 * | headers received within   | 15 s            | 408 (Node `headersTimeout`)   |
 * | whole request received in | 20 s            | 408 (Node `requestTimeout`)   |
 * | answered within           | 30 s after that | 503 (hook below)              |
 *
 * A POST holding an Idempotency-Key is exempt from the last one (limits/idempotency.ts).
 *
 * On shutdown the requests under way get `shutdownGraceMs` (10 s) to finish; the connections
 * still open then are closed (`boundShutdown`).
 *
 * Page size (50) and field bounds are the application's (docs/api.md, Limits).
 */
export interface RequestBounds {
  maxUrlLength: number;
  maxHeaderBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** From the moment the whole request has been received until the response must be under way. */
  handlerTimeoutMs: number;
  /** How often Node looks for requests past their timeouts (the timeouts are this precise). */
  timeoutCheckEveryMs: number;
  /** On close, how long the responses under way get before their connections are closed. */
  shutdownGraceMs: number;
  /** A body refused as too large is still read (and dropped) up to this size, so its client reads the 413. */
  maxRefusedBodyBytes: number;
}

export const DEFAULT_REQUEST_BOUNDS: RequestBounds = {
  maxUrlLength: 4096,
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 20_000,
  handlerTimeoutMs: 30_000,
  timeoutCheckEveryMs: 1_000,
  shutdownGraceMs: 10_000,
  maxRefusedBodyBytes: 8 * 1024 * 1024,
};

/**
 * `preClose` hook: closing stops accepting connections, closes the idle ones and waits for the
 * others. Node counts a connection whose request has begun and not finished (half a request's
 * headers, a browser's spare connection) as busy, not idle: it held the shutdown, and the stores'
 * closing behind it, for as long as its client stayed connected. After the grace, the connections
 * still open are closed.
 */
export function boundShutdown(
  server: { closeAllConnections(): void; once(event: 'close', listener: () => void): unknown },
  graceMs: number,
) {
  return (done: () => void) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.once('close', () => clearTimeout(timer));
    done();
  };
}

/**
 * `onRequest` hook: a URL longer than the bound is refused before routing. Typed by shape, as
 * NestJS's adapter brings its own copy of Fastify's types.
 */
export function refuseLongUrls(maxUrlLength: number) {
  return (
    request: { url: string },
    reply: { code(status: number): { send(payload: unknown): unknown } },
    done: () => void,
  ) => {
    if (request.url.length <= maxUrlLength) return done();
    // Answered here: the request goes no further (done is not called).
    reply.code(414).send({ message: `The URL is too long (at most ${maxUrlLength} characters)` });
  };
}

/**
 * `onError` hook: Fastify refuses a body over the limit from its Content-Length, before reading it,
 * and closes the connection. Closing a socket with unread bytes makes the kernel reset it, so a
 * client still sending its upload meets the reset on its next write and never reads the 413
 * (found by the fuzz suite, under load). Up to `maxBytes` the connection is kept instead: Node
 * reads the rest of the body and drops it (within the request timeout), the client reads the
 * answer, and the connection serves its next request. A larger or unframed upload is still cut.
 * An error hook, so that answers without an error never pass here.
 */
export function readRefusedBodies(maxBytes: number) {
  return (
    request: { headers: Record<string, string | string[] | undefined> },
    reply: { removeHeader(name: string): unknown },
    error: { statusCode?: number },
    done: () => void,
  ) => {
    if (error.statusCode === 413 && Number(request.headers['content-length']) <= maxBytes)
      reply.removeHeader('connection');
    done();
  };
}

const WAITING = Symbol('answerInTime.waiting');

/** A request as `answerInTime` marks it: its place in the list of those waiting, and an exemption. */
interface TimedRequest {
  [WAITING]?: Waiting;
  timeoutExempt?: boolean;
}

/** Milliseconds this request has left before its timeout answers it; Infinity when it has none. */
export function timeLeft(request: object): number {
  const { [WAITING]: waiting, timeoutExempt } = request as TimedRequest;
  return waiting === undefined || timeoutExempt ? Infinity : waiting.respondBy - performance.now();
}

/** Lets a request run past the timeout: for work whose outcome must be known before answering. */
export function exemptFromTimeout(request: object): void {
  (request as TimedRequest).timeoutExempt = true;
}

interface TimeoutReply {
  sent: boolean;
  raw: { destroyed: boolean };
  code(status: number): { header(name: string, value: string): { send(payload: unknown): unknown } };
}

/** A request waiting for its answer, in the list of those waiting (oldest first). */
interface Waiting {
  request: TimedRequest;
  reply: TimeoutReply;
  /** `performance.now()` by which it must be answered: monotonic, unlike the wall clock. */
  respondBy: number;
  prev: Waiting | null;
  next: Waiting | null;
}

/**
 * A request not answered `ms` after it was fully received gets a 503 JSON with `Retry-After`; the
 * handler may still finish (and take effect) afterwards, which the message says. Two hooks:
 * `preHandler` starts the clock, `onSend` stops it as the answer goes out.
 *
 * One timer serves every request. All have the same allowance, so their deadlines come in the
 * order they arrive: the requests waiting form a list in that order, and the timer is armed for
 * the oldest. An answer takes its request off the list; the timer, when it fires, answers each
 * request past its deadline and is armed again for the oldest left. (A timer and a `close`
 * listener per request cost a GET a measurable share of its time.) A request
 * whose answer never passes `onSend` (a hijacked reply) leaves the list at its deadline, untouched.
 *
 * Fastify has a `handlerTimeout` option for this, but it is disarmed as soon as a request body
 * has been read (the raw request's 'close' event is taken for a disconnect; fastify/fastify#6725),
 * so it never fires for a POST or PATCH. Slow uploads are Node's `requestTimeout` (408).
 */
export function answerInTime(ms: number, message: string) {
  let oldest: Waiting | null = null;
  let newest: Waiting | null = null;
  let timer: NodeJS.Timeout | null = null;
  let count = 0;

  const leave = (waiting: Waiting) => {
    if (waiting.prev) waiting.prev.next = waiting.next;
    else oldest = waiting.next;
    if (waiting.next) waiting.next.prev = waiting.prev;
    else newest = waiting.prev;
    waiting.prev = waiting.next = null;
    count--;
  };

  const arm = (now: number) => {
    timer = oldest ? setTimeout(expire, Math.max(0, oldest.respondBy - now)) : null;
    timer?.unref();
  };

  function expire() {
    const now = performance.now();
    // Taken off before it is answered: the 503 passes `onSend` too.
    for (let due = oldest; due && due.respondBy <= now; due = oldest) {
      leave(due);
      const { request, reply } = due;
      if (!reply.sent && !request.timeoutExempt && !reply.raw.destroyed)
        void reply.code(503).header('retry-after', '1').send({ message });
    }
    arm(now);
  }

  return {
    /** How many requests are waiting for their answer. */
    get waiting() {
      return count;
    },
    preHandler: (request: object, reply: TimeoutReply, done: () => void) => {
      const now = performance.now();
      const timed = request as TimedRequest;
      const waiting: Waiting = { request: timed, reply, respondBy: now + ms, prev: newest, next: null };
      timed[WAITING] = waiting;
      if (newest) newest.next = waiting;
      else oldest = waiting;
      newest = waiting;
      count++;
      if (!timer) arm(now);
      done();
    },
    onSend: (request: object, _reply: unknown, payload: unknown, done: (error: null, payload: unknown) => void) => {
      const waiting = (request as TimedRequest)[WAITING];
      if (waiting && (waiting.prev || oldest === waiting)) leave(waiting);
      done(null, payload);
    },
  };
}

/**
 * Node reports requests it cannot parse or that time out as `clientError`, outside any route;
 * Fastify's default answer has its own body shape. This one answers in the API's shape.
 */
export function jsonClientErrorHandler(bounds: RequestBounds) {
  return (error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => {
    // A reset connection has no one to answer (Node's http module, event 'clientError').
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let status = 400;
    let message = 'Malformed HTTP request';
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408;
      const [headers, all] = [bounds.headersTimeoutMs / 1000, bounds.requestTimeoutMs / 1000];
      message = `The request was not received in time (headers within ${headers} s, all of it within ${all} s)`;
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      status = 431;
      message = `The request line and headers are too large (at most ${bounds.maxHeaderBytes / 1024} KiB)`;
    }
    const body = JSON.stringify({ message });
    // The answer to a HEAD has the headers of the answer to a GET and never a body: a client reads
    // what follows the headers as the next response, and fails on it.
    // (Node hands the bytes it was parsing as `rawPacket`, a Buffer.)
    const head = Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
      );
    }
    socket.destroy(error);
  };
}
