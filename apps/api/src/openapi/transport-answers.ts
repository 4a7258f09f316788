import type { OpenAPIObject } from '@nestjs/swagger';
import { REQUEST_TIMED_OUT } from '../http/errors';
import type { RequestBounds } from '../http/request-bounds';
import { Json } from './json';

/**
 * The answers every route can give that no controller declares, because they come from below the
 * routes (http/request-bounds.ts, Fastify's body parsing): a client generated from the document
 * then knows them, and the document says what the service really answers.
 *
 * - any request: 408 (not received in time), 414 (URL too long), 431 (request line and headers
 *   too large), 503 (not answered in time, with Retry-After);
 * - a request that may carry a body (POST, PUT, PATCH): 413 (body too large), 415 (not JSON);
 * - the probes (/health, /ready, /metrics) take no credentials: their `security` is the empty
 *   list, which says so (leaving it out would mean "as the document's default").
 *
 * The messages are those the service sends; test/e2e/openapi.e2e-spec.ts provokes each answer
 * it can over loopback and compares.
 */

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const WITH_BODY = new Set(['put', 'post', 'patch']);

/** Fastify's default `bodyLimit` when the application sets none. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Fastify's own messages (FST_ERR_CTP_BODY_TOO_LARGE, FST_ERR_CTP_INVALID_MEDIA_TYPE), passed on by http/errors.ts. */
export const BODY_TOO_LARGE = 'Request body is too large';
export const UNSUPPORTED_MEDIA_TYPE = 'Unsupported Media Type';

type Bounds = Pick<
  RequestBounds,
  'maxUrlLength' | 'maxHeaderBytes' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'handlerTimeoutMs'
> & {
  bodyLimit: number;
};

const error = (description: string, key: string, message: string, headers?: Json): Json => ({
  description,
  ...(headers ? { headers } : {}),
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/Error' },
      examples: { [key]: { summary: message, value: { message } } },
    },
  },
});

/** The messages of http/request-bounds.ts for these bounds. */
export function transportMessages(bounds: Bounds) {
  return {
    408: `The request was not received in time (headers within ${bounds.headersTimeoutMs / 1000} s, all of it within ${bounds.requestTimeoutMs / 1000} s)`,
    413: BODY_TOO_LARGE,
    414: `The URL is too long (at most ${bounds.maxUrlLength} characters)`,
    415: UNSUPPORTED_MEDIA_TYPE,
    431: `The request line and headers are too large (at most ${bounds.maxHeaderBytes / 1024} KiB)`,
    503: REQUEST_TIMED_OUT,
  } as const;
}

function transportResponses(bounds: Bounds): Json {
  const messages = transportMessages(bounds);
  return {
    RequestTimeout: error(
      `The request was not received in time: headers within ${bounds.headersTimeoutMs / 1000} s, all of it within ${bounds.requestTimeoutMs / 1000} s. The connection is closed.`,
      'request_timeout',
      messages[408],
    ),
    BodyTooLarge: error(`The body is over ${bounds.bodyLimit / 1024} KiB`, 'body_too_large', messages[413]),
    UrlTooLong: error(`The URL is over ${bounds.maxUrlLength} characters`, 'url_too_long', messages[414]),
    UnsupportedMediaType: error('A body that is not `application/json`', 'unsupported_media_type', messages[415]),
    HeadersTooLarge: error(
      `The request line and headers are over ${bounds.maxHeaderBytes / 1024} KiB. The connection is closed.`,
      'headers_too_large',
      messages[431],
    ),
    NotAnsweredInTime: error(
      `Not answered within ${bounds.handlerTimeoutMs / 1000} s of being received; the request may still take effect (a POST with an Idempotency-Key is never cut short)`,
      'request_timed_out',
      messages[503],
      { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', example: 1 } } },
    ),
  };
}

export function addTransportAnswers(document: OpenAPIObject, bounds: Bounds): OpenAPIObject {
  const components = (document.components ??= {}) as Json;
  Object.assign((components.responses ??= {}), transportResponses(bounds));
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      if (!path.startsWith('/v1/')) operation.security ??= [];
      const responses = (operation.responses ??= {}) as Json;
      responses['408'] ??= ref('RequestTimeout');
      if (WITH_BODY.has(method)) {
        responses['413'] ??= ref('BodyTooLarge');
        responses['415'] ??= ref('UnsupportedMediaType');
      }
      responses['414'] ??= ref('UrlTooLong');
      responses['431'] ??= ref('HeadersTooLarge');
      responses['503'] ??= ref('NotAnsweredInTime');
    }
  }
  return document;
}
