import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator, API_KEY_PREFIX, AuthResult, Principal } from '@app/application';
import { APP_CONFIG } from '../tokens';
import { Inject } from '@nestjs/common';
import type { AppConfig } from '../config';
import { AuthError } from './errors';
import { OperatorToken } from './operator-token';

/** Who may call a route: anyone (health), the operator (admin API), or an API key (default). */
export type Audience = 'public' | 'operator' | 'api_key';
const AUDIENCE = 'audience';
export const Public = () => SetMetadata(AUDIENCE, 'public');
export const OperatorOnly = () => SetMetadata(AUDIENCE, 'operator');

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AuthenticatedRequest extends FastifyRequest {
  principal?: Principal;
  operator?: boolean;
  /** Set when the key was already resolved for this request (the per-key rate limit does it first). */
  authentication?: AuthResult;
}

export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

@Injectable()
export class AuthGuard implements CanActivate {
  private readonly operatorToken: OperatorToken;
  /** Audience per route handler: metadata never changes after start, so it is looked up once. */
  private readonly audiences = new WeakMap<object, Audience>();

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.operatorToken = new OperatorToken(config.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const audience = this.audienceOf(context);
    if (audience === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const presented = bearerOf(request);

    if (audience === 'operator') {
      if (presented?.startsWith(API_KEY_PREFIX)) throw new AuthError('api_key_path_not_allowed');
      if (!this.operatorToken.matches(presented)) throw new AuthError('invalid_admin_token');
      request.operator = true;
      return true;
    }

    const result = request.authentication ?? (await this.authenticator.authenticate(presented));
    if (!result.ok) throw new AuthError(result.failure);
    if (result.principal.scope === 'read_only' && !READ_METHODS.has(request.method)) {
      throw new AuthError('read_only_access');
    }
    request.principal = result.principal;
    return true;
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
