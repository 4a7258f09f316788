import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { CommandContext, Principal, ReadConsistency } from '@app/application';
import { OPERATOR } from '@app/domain';
import type { FastifyRequest } from 'fastify';
import { principalOf } from './authentication';

/** Where a request's writes record the read models they could not wait for (see read-consistency.ts). */
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
  return {
    actor: principal ? { type: 'api_key', id: principal.keyId, name: principal.keyName } : OPERATOR,
    workspaceId: principal?.workspaceId ?? null,
    requestId,
    causationId: requestId,
    consistency: (request.readConsistency ??= { pending: [] }),
    idempotencyKey: idempotencyKeyOf(request.headers['idempotency-key']),
  };
});

/** The header as sent, when it is one value (the idempotency hook has already refused malformed ones). */
function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && header.length > 0 ? header : undefined;
}

/** The API key behind this request (routes for API keys only). */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = principalOf(context.switchToHttp().getRequest<FastifyRequest>());
  if (!principal) throw new Error('Caller used on a route that is not authenticated by API key');
  return principal;
});
