import { randomUUID } from 'node:crypto';
import { Command as CqrsCommand } from '@nestjs/cqrs';
import { Actor } from '@app/domain';
import { IdGenerator } from '../ports/id-generator.port';

/**
 * Who is asking and on whose behalf, set once from the request (the HTTP adapter or the CLI
 * builds it) and carried by every command into the metadata of the events it causes.
 */
export interface CommandContext {
  readonly actor: Actor;
  /** The tenant: every API-key request is confined to its key's workspace. */
  readonly workspaceId: string | null;
  readonly requestId: string;
  /**
   * The client's Idempotency-Key, when it sent one: ids of resources a command creates are derived
   * from it, so a retry that runs again (its first run died before its answer was stored) creates
   * the same resource, not a second one.
   */
  readonly idempotencyKey?: string;
  /**
   * What caused the events this command records (their `metadata.causationId`): the command's
   * own id — the request id for an HTTP command, a generated one for a background command — or,
   * for a command that reacts to an event, that event's id.
   */
  readonly causationId: string;
  /**
   * Filled in by the repository when a write's read models did not show it in time (set by the
   * HTTP adapter, read when it answers). Absent for commands nobody answers.
   */
  readonly consistency?: ReadConsistency;
}

/** The request-scoped record of read models a write could not wait for. */
export interface ReadConsistency {
  /** Names of the projections that did not show a write of this request (may repeat). */
  pending: string[];
}

/** A context for a command that no request caused (a background job): its own generated id. */
export function backgroundContext(workspaceId: string | null, actor: Actor, requestId: string): CommandContext {
  return { actor, workspaceId, requestId, causationId: `cmd_${randomUUID()}` };
}

export abstract class Command<Result = void> extends CqrsCommand<Result> {
  protected constructor(readonly context: CommandContext) {
    super();
  }
}

/**
 * The id of a resource this command creates: random, or derived from the request's Idempotency-Key
 * within the key's own scope (the caller, as the idempotency store scopes keys) and `within` (e.g.
 * the parent resource), so a retry of the same request names the same resource.
 */
export function newResourceId(
  ids: IdGenerator,
  prefix: string,
  context: CommandContext,
  within: string[] = [],
): string {
  if (!context.idempotencyKey) return ids.next(prefix);
  const caller = 'id' in context.actor ? `${context.actor.type}:${context.actor.id}` : context.actor.type;
  return ids.derive(prefix, [caller, context.workspaceId ?? '', ...within, context.idempotencyKey].join('\0'));
}
