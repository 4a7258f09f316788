import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_PREFIX,
  ApiKeyAuthenticator,
  AuthResult,
  CommandContext,
  OPERATOR_TOKEN_PREFIX,
  OperatorCredentials,
  OperatorIdentity,
  OperatorRole,
  Principal,
  ReadConsistency,
} from '@app/application';
import { OPERATOR } from '@app/domain';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../tokens';
import { AuthError } from './errors';

/**
 * Who is calling. The credential is resolved once, by the first hook of the pipeline
 * (`RequestAuthentication`); the guard judges it against the route's audience (`AuthGuard`);
 * the controllers read the caller through `Ctx` and `Caller`.
 */

// The credential.

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The operator's credential, compared by digest so the comparison takes the same time whatever
 * the presented token's length. Checked once per request, by the authentication hook below,
 * whose answer the guard, the idempotency scope and the rate limiter read.
 */
class OperatorToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  matches(presented: string | undefined): boolean {
    return presented !== undefined && timingSafeEqual(digest(presented), this.expected);
  }
}

/** The bootstrap ADMIN_TOKEN: an operator, with no credential id. */
const ADMIN_TOKEN_IDENTITY = { id: null, name: 'ADMIN_TOKEN', role: 'operator' } as const;

/**
 * Who sent a request, resolved once from its bearer credential by the first hook of the pipeline
 * (http/pipeline.ts) and only read after it: by the rate limiter (whose counter), idempotency
 * (whose keys), the auth guard (may this caller use this route) and the request context (the
 * actor of the events). Nothing else looks at the Authorization header.
 */
export interface Credentials {
  /** The bearer token as presented; undefined without one. */
  readonly presented: string | undefined;
  /** The presented token is the operator's: the bootstrap ADMIN_TOKEN or a valid operator credential. */
  readonly operator: boolean;
  /**
   * Who the operator is: the credential's id, name and role; for ADMIN_TOKEN, role `operator` and
   * no id. Null when the token is no operator's.
   */
  readonly operatorIdentity: OperatorIdentity | { id: null; name: string; role: 'operator' } | null;
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
    private readonly operators: OperatorCredentials,
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
      request.credentials = { presented, operator, operatorIdentity: ADMIN_TOKEN_IDENTITY, apiKey: null };
      return done();
    }
    // An operator credential is read from its store on every request (by digest): a revocation
    // holds from the next request on, on every process.
    if (presented?.startsWith(OPERATOR_TOKEN_PREFIX)) {
      this.operators.authenticate(presented).then(
        (identity) => {
          request.credentials = { presented, operator: identity !== null, operatorIdentity: identity, apiKey: null };
          done();
        },
        (unavailable: unknown) => {
          request.credentials = { presented, operator: false, operatorIdentity: null, apiKey: null, unavailable };
          done();
        },
      );
      return;
    }
    let checked: AuthResult | Promise<AuthResult>;
    try {
      checked = this.authenticator.check(presented);
    } catch (unavailable) {
      checked = Promise.reject(unavailable);
    }
    if (!(checked instanceof Promise)) {
      request.credentials = { presented, operator, operatorIdentity: null, apiKey: checked };
      return done();
    }
    checked.then(
      (apiKey) => {
        request.credentials = { presented, operator, operatorIdentity: null, apiKey };
        done();
      },
      (unavailable: unknown) => {
        request.credentials = { presented, operator, operatorIdentity: null, apiKey: null, unavailable };
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

// The guard.

/** Who may call a route: anyone (health), the operator (admin API), or an API key (default). */
export type Audience = 'public' | 'operator' | 'api_key';
const AUDIENCE = 'audience';
export const Public = () => SetMetadata(AUDIENCE, 'public');
export const OperatorOnly = () => SetMetadata(AUDIENCE, 'operator');

const REQUIRED_ROLE = 'operator_role';
/**
 * The least operator role a route of the operator API needs: `auditor` for the reads (every GET,
 * and the POSTs that only verify), `operator` for everything that changes state. Every operator
 * route declares one (test/e2e/operator-roles.e2e-spec.ts checks); a route without one needs
 * `operator`.
 */
export const RequiresRole = (role: OperatorRole) => SetMetadata(REQUIRED_ROLE, role);

/** The role a route handler itself declared with `RequiresRole`, if any (the OpenAPI document's 403 examples). */
export function requiredRoleOfMethod(handler: object): OperatorRole | undefined {
  return Reflect.getMetadata(REQUIRED_ROLE, handler) as OperatorRole | undefined;
}

/** The role a route declared with `RequiresRole`, on its handler or its controller, if any. */
export function requiredRoleOf(reflector: Reflector, handler: object, controller: object): OperatorRole | undefined {
  return reflector.getAllAndOverride<OperatorRole | undefined>(REQUIRED_ROLE, [
    handler as () => void,
    controller as () => void,
  ]);
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

@Injectable()
export class AuthGuard implements CanActivate {
  /** Audience per route handler: metadata never changes after start, so it is looked up once. */
  private readonly audiences = new WeakMap<object, Audience>();
  private readonly roles = new WeakMap<object, OperatorRole>();

  constructor(private readonly reflector: Reflector) {}

  /** Judges the credentials the pipeline resolved (`RequestAuthentication`) against the route's audience. */
  canActivate(context: ExecutionContext): boolean {
    const audience = this.audienceOf(context);
    if (audience === 'public') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const credentials = request.credentials;
    if (!credentials) throw new Error('No credentials: the authentication hook did not run (http/pipeline.ts)');

    if (audience === 'operator') {
      if (credentials.presented?.startsWith(API_KEY_PREFIX)) throw new AuthError('api_key_path_not_allowed');
      if (!credentials.operator || !credentials.operatorIdentity) {
        // An operator credential that could not be checked (its store unreachable) is not a wrong one.
        if (credentials.presented?.startsWith(OPERATOR_TOKEN_PREFIX) && credentials.unavailable !== undefined)
          throw credentials.unavailable;
        throw new AuthError('invalid_admin_token');
      }
      if (credentials.operatorIdentity.role !== 'operator' && this.roleOf(context) === 'operator') {
        throw new AuthError('operator_role_required');
      }
      return true;
    }

    if (credentials.unavailable !== undefined) throw credentials.unavailable;
    const result = credentials.apiKey ?? { ok: false, failure: 'invalid_api_key' };
    if (!result.ok) throw new AuthError(result.failure);
    if (result.principal.scope === 'read_only' && !READ_METHODS.has(request.method)) {
      throw new AuthError('read_only_access');
    }
    return true;
  }

  private roleOf(context: ExecutionContext): OperatorRole {
    const handler = context.getHandler();
    let role = this.roles.get(handler);
    if (role === undefined) {
      role = requiredRoleOf(this.reflector, handler, context.getClass()) ?? 'operator';
      this.roles.set(handler, role);
    }
    return role;
  }

  private audienceOf(context: ExecutionContext): Audience {
    const handler = context.getHandler();
    let audience = this.audiences.get(handler);
    if (audience === undefined) {
      audience = this.reflector.getAllAndOverride<Audience>(AUDIENCE, [handler, context.getClass()]) ?? 'api_key';
      this.audiences.set(handler, audience);
    }
    return audience;
  }
}

// The caller, for the controllers.

/** Where a request's writes record the read models they could not wait for (the X-Read-Consistency hook, http/pipeline.ts). */
export interface ConsistencyRequest {
  readConsistency?: ReadConsistency;
}

/**
 * The command context of this request: actor, tenant and request id (also the command's id, the
 * causation of its events), derived once here, with the request's read-consistency slot.
 */
export const Ctx = createParamDecorator((_data: unknown, context: ExecutionContext): CommandContext => {
  const request = context.switchToHttp().getRequest<FastifyRequest & ConsistencyRequest>();
  // The guard let this request through: an API key's principal, or the operator (none).
  const principal = principalOf(request);
  const requestId = String(request.id);
  const operatorId = request.credentials?.operatorIdentity?.id;
  return {
    actor: principal
      ? { type: 'api_key', id: principal.keyId, name: principal.keyName }
      : operatorId
        ? { type: 'operator', id: operatorId }
        : OPERATOR,
    workspaceId: principal?.workspaceId ?? null,
    requestId,
    causationId: requestId,
    consistency: (request.readConsistency ??= { pending: [] }),
    idempotencyKey: idempotencyKeyOf(request.headers['idempotency-key']),
  };
});

/** The header as sent, when it is one value (on a POST, the idempotency hook has already refused a malformed one). */
function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && header.length > 0 ? header : undefined;
}

/** The API key behind this request (routes for API keys only). */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = principalOf(context.switchToHttp().getRequest<FastifyRequest>());
  if (!principal) throw new Error('Caller used on a route that is not authenticated by API key');
  return principal;
});
