import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { STALE_IF_MATCH } from '@app/application';
import { preconditionFailed } from '@app/domain';
import { HttpProblem } from './errors';

/**
 * Optimistic concurrency over HTTP (RFC 9110 conditional requests), for any resource whose
 * version is its aggregate's stream revision.
 *
 * - The ETag is the revision as a strong entity tag, `"<revision>"`: one revision has exactly one
 *   JSON representation, and If-Match compares strongly, so a weak tag could never be used there.
 * - Reads: a handler returns `tagged(view, revision)`; the client gets the view and an `ETag`
 *   header, or a bodiless 304 when its `If-None-Match` names the same revision.
 * - Writes: `@IfMatch()` hands the handler the revision the client last saw (or undefined), to pass
 *   on as the command's `expectedRevision`; the repository refuses a stale one with 412. A write
 *   handler may return `tagged(body, newRevision)` so the client can chain writes without a GET.
 *
 * The unwrapping is done by Fastify hooks (`conditionalResponses`), not a NestJS interceptor: an
 * interceptor on a route costs that route as much as the rest of a GET.
 */

/** A response body together with the revision of the resource it shows. */
export class Tagged<T> {
  constructor(
    readonly body: T,
    readonly revision: number,
  ) {}
}

export const tagged = <T>(body: T, revision: number) => new Tagged(body, revision);

export const etagOf = (revision: number) => `"${revision}"`;

const READS = new Set(['GET', 'HEAD']);
const NOT_MODIFIED = Symbol('notModified');

/** The reply surface the hooks use, by shape (NestJS's adapter brings its own copy of Fastify's types). */
interface HookReply {
  statusCode: number;
  code(status: number): unknown;
  header(name: string, value: string): unknown;
  removeHeader(name: string): unknown;
}

/**
 * Fastify hooks that turn a `Tagged` result into its body plus an `ETag` header (preSerialization),
 * and a GET whose If-None-Match names that tag into a bodiless 304 (onSend). Every other response
 * passes through untouched at the cost of an `instanceof`.
 */
export function conditionalResponses() {
  return {
    preSerialization: (
      request: Pick<FastifyRequest, 'method' | 'headers'>,
      reply: HookReply,
      payload: unknown,
      done: (err: null, value: unknown) => void,
    ) => {
      if (!(payload instanceof Tagged)) return done(null, payload);
      const etag = etagOf(payload.revision);
      reply.header('etag', etag);
      if (READS.has(request.method) && noneMatch(request.headers['if-none-match'], etag)) {
        reply.code(304);
        (request as { [NOT_MODIFIED]?: boolean })[NOT_MODIFIED] = true;
      }
      done(null, payload.body);
    },
    onSend: (request: object, reply: HookReply, payload: unknown, done: (err: null, value: unknown) => void) => {
      if (!(request as { [NOT_MODIFIED]?: boolean })[NOT_MODIFIED]) return done(null, payload);
      // A 304 carries the validator but no representation (RFC 9110, 15.4.5).
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      done(null, null);
    },
  };
}

/**
 * The revision named by the request's If-Match, for the command's `expectedRevision`:
 * undefined when the header is absent or `*` (any current version: the command itself answers
 * 404 when there is none). A tag that can never equal a revision (weak, or not one of ours) is a
 * 412 right away; a header that is not an entity tag at all is a 400.
 */
export const IF_MATCH_MESSAGES = {
  format: 'If-Match must be an entity tag as given in the ETag header, quotes included (e.g. "3"), or *',
  weak: 'If-Match compares strongly: a weak entity tag (W/"...") never matches',
} as const;

export const IfMatch = createParamDecorator((_data: unknown, context: ExecutionContext): number | undefined =>
  parseIfMatch(context.switchToHttp().getRequest<FastifyRequest>().headers['if-match']),
);

const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e]*)"$/;
const REVISION = /^(0|[1-9]\d{0,14})$/;

export function parseIfMatch(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '*') return undefined;
  const tags = value.split(',').map((t) => t.trim());
  if (tags.length !== 1) {
    throw new HttpProblem(400, 'If-Match takes a single entity tag, as given in the ETag header (e.g. "3"), or *');
  }
  const match = ENTITY_TAG.exec(tags[0]);
  if (!match) throw new HttpProblem(400, IF_MATCH_MESSAGES.format);
  if (match[1]) throw preconditionFailed(IF_MATCH_MESSAGES.weak);
  if (!REVISION.test(match[2])) throw preconditionFailed(STALE_IF_MATCH);
  return Number(match[2]);
}

/** If-None-Match (weak comparison): true when the list names `etag` or is `*`. */
function noneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
