import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import { randomUUID } from 'node:crypto';
import { CLOCK, Clock, IDEMPOTENCY_STORE, IdempotencyStore, StoredResponse } from '@app/application';
import { principalOf } from '../http/auth';
import { HttpProblem } from '../http/errors';
import { exemptFromTimeout, timeLeft } from '../http/request-bounds';
import { ResponseSealer } from './response-sealer';
import { waitAtMost } from '../wait-at-most';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long a completed request is remembered and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/**
 * How long a claim holds if its request never reports back. It only matters when the process
 * running the request dies; it must exceed the longest a request can run.
 */
export const IDEMPOTENCY_LOCK_MS = 120_000;
/**
 * How long a duplicate waits for the original to finish before it is told to retry (409); at
 * most half the time its own request has left, so the client hears "retry" rather than a timeout.
 */
export const IDEMPOTENCY_WAIT_MS = 10_000;

/** Visible ASCII, as in the IETF draft's examples (UUIDs, ULIDs, random tokens). */
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
export const KEY_FORMAT_MESSAGE = 'Idempotency-Key must be 1 to 255 visible ASCII characters (e.g. a UUID)';
export const KEY_REUSED_MESSAGE =
  'This Idempotency-Key was already used for a different request (another method, path or body); use a new key for a new request';
export const KEY_IN_PROGRESS_MESSAGE =
  'A request with this Idempotency-Key is still being processed; retry after it has finished';
/** Response headers worth repeating in a replay. */
const REPLAYED_HEADERS = ['content-type', 'etag', 'location'];

/** What a request that claimed its key carries until its response is stored. */
interface Claimed {
  scope: string;
  key: string;
  owner: string;
  sealer: ResponseSealer;
  settle: () => void;
}

interface IdempotentRequest extends FastifyRequest {
  idempotency?: Claimed;
}

/**
 * Idempotent retries of POST requests (draft-ietf-httpapi-idempotency-key-header), for every
 * POST route, with no change to the routes themselves.
 *
 * With an `Idempotency-Key`, the first request claims the key (per caller: an API key's keys are
 * its own) and runs; its 2xx response is stored, sealed under the caller's credential, for 24
 * hours. A retry with the same key and the same request gets that response again, marked
 * `Idempotent-Replayed: true`, and the handler does not run. A retry while the first is still
 * running waits for it. The same key with another method, path or body is a 422.
 *
 * Only successes are stored. A failed request had no effect (commands are atomic), so its key is
 * released, and a retry, with the same body or a corrected one, runs again.
 *
 * Built from two Fastify hooks, which http/pipeline.ts gives each POST route as its own, rather
 * than a NestJS interceptor, whose pipeline costs a route as much as the rest of a GET.
 * `preHandler` (body parsed) claims or replays; `onSend` stores exactly what is sent. The caller
 * is the one the first hook of the pipeline resolved from the bearer credential; a request whose
 * credential is not valid is left to the guard to refuse, without touching the store.
 */
@Injectable()
export class Idempotency {
  private readonly logger = new Logger('Idempotency');
  /** Keys this process is running now, settled when each finishes: local duplicates wait on these. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  // Callback-style hooks (on every POST route, http/pipeline.ts): the common case (a POST without
  // a key) should not cost a promise.
  /** Claims the key before the handler runs, or replays the stored response. */
  readonly preHandler: preHandlerHookHandler = (request, reply, done) => {
    const header = request.method === 'POST' ? request.headers[IDEMPOTENCY_KEY_HEADER] : undefined;
    // No key, or no route (the 404 needs no protection).
    if (header === undefined || !request.routeOptions.url) return done();
    this.begin(request as IdempotentRequest, reply, header).then(
      // After a replay the response is sent: the request goes no further (done is not called).
      (replayed) => (replayed ? undefined : done()),
      (error: Error) => done(error),
    );
  };

  /** Stores the response under the claimed key. */
  readonly onSend: onSendHookHandler = (request, reply, payload, done) => {
    const claimed = (request as IdempotentRequest).idempotency;
    if (!claimed) return done(null, payload);
    // Once per request, even if an error in a later hook makes Fastify send another response.
    (request as IdempotentRequest).idempotency = undefined;
    void this.finish(claimed, reply, payload).then(() => done(null, payload));
  };

  /** Claims the key (the request then runs), or replays; true when the response has been sent. */
  private async begin(request: IdempotentRequest, reply: FastifyReply, header: string | string[]): Promise<boolean> {
    const key = parseIdempotencyKey(header);
    const credential = request.credentials?.presented;
    const scope = scopeOf(request);
    if (!credential || !scope) return false;

    const sealer = new ResponseSealer(credential, scope);
    const fingerprint = sealer.fingerprint(request.method, request.url, request.body);
    const owner = randomUUID();
    const local = recordKey(scope, key);
    const waitMs = Math.min(IDEMPOTENCY_WAIT_MS, timeLeft(request) / 2);
    const replay = await this.claim(scope, key, fingerprint, owner, sealer, waitMs);
    if (replay) {
      void reply
        .code(replay.status)
        .headers({ ...replay.headers, [REPLAYED_HEADER]: 'true' })
        .send(replay.body === '' ? undefined : replay.body);
      return true;
    }

    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    this.running.set(local, done);
    const settle = () => {
      if (this.running.get(local) === done) this.running.delete(local);
      resolve();
    };
    request.idempotency = { scope, key, owner, sealer, settle };
    // Should no response ever be sent (connection gone mid-way), local duplicates stop waiting on
    // this one and fall back to the store, where the claim's lock decides.
    reply.raw.once('close', settle);
    // Answering 503 while the request may still take effect would leave nothing to replay: a
    // request that holds a key answers when it is done.
    exemptFromTimeout(request);
    return false;
  }

  /** Claims the key; or returns the response to replay; or waits while another request holds it. */
  private async claim(
    scope: string,
    key: string,
    fingerprint: string,
    owner: string,
    sealer: ResponseSealer,
    waitMs: number,
  ): Promise<StoredResponse | null> {
    const deadline = Date.now() + waitMs;
    let pause = 5;
    for (;;) {
      const now = this.clock.now();
      const result = await this.store.claim({
        scope,
        key,
        fingerprint,
        owner,
        now,
        lockedUntil: now + IDEMPOTENCY_LOCK_MS,
        expiresAt: now + IDEMPOTENCY_TTL_MS,
      });
      if (result.outcome === 'claimed') return null;
      if (result.fingerprint !== fingerprint) throw new HttpProblem(422, KEY_REUSED_MESSAGE);
      if (result.outcome === 'completed') return opened(result.response, sealer, recordKey(scope, key));

      const left = deadline - Date.now();
      if (left <= 0) throw new HttpProblem(409, KEY_IN_PROGRESS_MESSAGE, { 'retry-after': '1' });
      // The original runs here: wake when it finishes. Elsewhere (another instance): poll.
      await waitAtMost(this.running.get(recordKey(scope, key)) ?? sleep(pause), left);
      pause = Math.min(pause * 2, 200);
    }
  }

  /** Stores a success (exactly as sent), or frees the key after a failure. */
  private async finish(claimed: Claimed, reply: FastifyReply, payload: unknown): Promise<void> {
    const { scope, key, owner, sealer } = claimed;
    try {
      if (reply.statusCode >= 200 && reply.statusCode < 300) {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
        const response = {
          status: reply.statusCode,
          headers,
          body: body === '' ? '' : sealer.seal(body, recordKey(scope, key)),
        };
        if (!(await this.store.complete(scope, key, owner, response))) {
          this.logger.warn(
            `An Idempotency-Key claim was taken over before its request finished (lock of ${IDEMPOTENCY_LOCK_MS} ms exceeded)`,
          );
        }
      } else {
        await this.store.release(scope, key, owner);
      }
    } catch (error) {
      // The response stands either way; a retry then waits for the claim's lock to run out.
      this.logger.error(`Could not record the outcome of an Idempotency-Key: ${(error as Error)?.message ?? error}`);
    } finally {
      claimed.settle();
    }
  }
}

export function parseIdempotencyKey(header: string | string[]): string {
  if (Array.isArray(header)) throw new HttpProblem(400, 'Idempotency-Key must be given once');
  // The draft defines the value as a structured-field string ("..."); bare tokens are common too.
  const value = /^"(.*)"$/.exec(header.trim())?.[1] ?? header.trim();
  if (!KEY_FORMAT.test(value)) throw new HttpProblem(400, KEY_FORMAT_MESSAGE);
  return value;
}

/** The record's identity, also authenticated with its sealed body so a body cannot move to another record. */
const recordKey = (scope: string, key: string) => `${scope}\u0000${key}`;

function opened(response: StoredResponse, sealer: ResponseSealer, record: string): StoredResponse {
  const body = response.body === '' ? '' : sealer.open(response.body, record);
  // Sealed under another credential: not this caller's request (within one scope this happens
  // only when the operator token changed), so the key is as good as taken.
  if (body === null) throw new HttpProblem(422, KEY_REUSED_MESSAGE);
  return { ...response, body };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Whose keys these are: an active API key's, or an operator's (each operator credential its own,
 * ADMIN_TOKEN's `operator`); undefined for anyone else.
 */
function scopeOf(request: FastifyRequest): string | undefined {
  if (request.credentials?.operator) {
    const id = request.credentials.operatorIdentity?.id;
    return id ? `operator:${id}` : 'operator';
  }
  const principal = principalOf(request);
  return principal ? `api_key:${principal.keyId}` : undefined;
}
