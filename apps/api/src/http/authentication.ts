import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, ApiKeyAuthenticator, AuthResult, Principal } from '@app/application';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../tokens';
import { OperatorToken } from './operator-token';

/**
 * Who sent a request, resolved once from its bearer credential by the first hook of the pipeline
 * (http/pipeline.ts) and only read after it: by the rate limiter (whose counter), idempotency
 * (whose keys), the auth guard (may this caller use this route) and the request context (the
 * actor of the events). Nothing else looks at the Authorization header.
 */
export interface Credentials {
  /** The bearer token as presented; undefined without one. */
  readonly presented: string | undefined;
  /** The presented token is the operator's. */
  readonly operator: boolean;
  /**
   * An API key's check: whose key it is, or why it fails. Null for the operator's token, and when
   * the check could not be made (`unavailable` says why: the guard answers with it).
   */
  readonly apiKey: AuthResult | null;
  readonly unavailable?: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `RequestAuthentication.onRequest`, the first hook every request meets. */
    credentials?: Credentials;
  }
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

@Injectable()
export class RequestAuthentication {
  private readonly operatorToken: OperatorToken;

  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.operatorToken = new OperatorToken(config.adminToken);
  }

  /**
   * The onRequest hook (registered first in http/pipeline.ts). Callback style, and done in the
   * same turn when the key's answer is in memory (nearly always): only a key looked up in the read
   * models waits for a promise.
   */
  readonly onRequest = (request: FastifyRequest, _reply: unknown, done: () => void): void => {
    const presented = bearerOf(request);
    // An API key is never the operator's token (the guard refuses API keys on operator routes),
    // so an API request costs no digest of it.
    const operator = !presented?.startsWith(API_KEY_PREFIX) && this.operatorToken.matches(presented);
    if (operator) {
      request.credentials = { presented, operator, apiKey: null };
      return done();
    }
    let checked: AuthResult | Promise<AuthResult>;
    try {
      checked = this.authenticator.check(presented);
    } catch (unavailable) {
      checked = Promise.reject(unavailable);
    }
    if (!(checked instanceof Promise)) {
      request.credentials = { presented, operator, apiKey: checked };
      return done();
    }
    checked.then(
      (apiKey) => {
        request.credentials = { presented, operator, apiKey };
        done();
      },
      (unavailable: unknown) => {
        request.credentials = { presented, operator, apiKey: null, unavailable };
        done();
      },
    );
  };
}

/** The API key's principal, when the request carries a valid one. */
export function principalOf(request: FastifyRequest): Principal | undefined {
  const apiKey = request.credentials?.apiKey;
  return apiKey?.ok ? apiKey.principal : undefined;
}
