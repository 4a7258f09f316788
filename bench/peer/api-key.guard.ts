import { createHash } from 'node:crypto';
import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  createParamDecorator,
} from '@nestjs/common';
import type { Statement } from 'better-sqlite3';
import type { FastifyRequest } from 'fastify';
import { ApiKey, DATABASE, type SqliteDatabase } from './database';

type AuthenticatedRequest = FastifyRequest & { apiKey?: ApiKey };

/** `Authorization: Bearer <key>`: the key's SHA-256 looked up in the keys table; writes need full access. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly findKey: Statement<[string], ApiKey>;

  constructor(@Inject(DATABASE) db: SqliteDatabase) {
    this.findKey = db.prepare('SELECT * FROM api_keys WHERE key_hash = ?');
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const [scheme, key] = (request.headers.authorization ?? '').split(' ');
    const apiKey =
      scheme === 'Bearer' && key ? this.findKey.get(createHash('sha256').update(key).digest('hex')) : undefined;
    if (!apiKey) throw new ForbiddenException({ message: 'Invalid API key', code_name: 'invalid_api_key' });
    if (request.method !== 'GET' && apiKey.scope !== 'full_access')
      throw new ForbiddenException({ message: 'API key has read-only access', code_name: 'read_only_access' });
    request.apiKey = apiKey;
    return true;
  }
}

/** The API key the guard accepted. */
export const CurrentKey = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<AuthenticatedRequest>().apiKey,
);
