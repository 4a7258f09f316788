import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { API_KEY_PREFIX } from '@app/application';
import { AuthError } from './errors';

/** Who may call a route: anyone (health), the operator (admin API), or an API key (default). */
export type Audience = 'public' | 'operator' | 'api_key';
const AUDIENCE = 'audience';
export const Public = () => SetMetadata(AUDIENCE, 'public');
export const OperatorOnly = () => SetMetadata(AUDIENCE, 'operator');

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

@Injectable()
export class AuthGuard implements CanActivate {
  /** Audience per route handler: metadata never changes after start, so it is looked up once. */
  private readonly audiences = new WeakMap<object, Audience>();

  constructor(private readonly reflector: Reflector) {}

  /** Judges the credentials the pipeline resolved (http/authentication.ts) against the route's audience. */
  canActivate(context: ExecutionContext): boolean {
    const audience = this.audienceOf(context);
    if (audience === 'public') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const credentials = request.credentials;
    if (!credentials) throw new Error('No credentials: the authentication hook did not run (http/pipeline.ts)');

    if (audience === 'operator') {
      if (credentials.presented?.startsWith(API_KEY_PREFIX)) throw new AuthError('api_key_path_not_allowed');
      if (!credentials.operator) throw new AuthError('invalid_admin_token');
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
