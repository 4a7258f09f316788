import { randomUUID } from 'node:crypto';
import { Command as CqrsCommand } from '@nestjs/cqrs';
import { Actor } from '@app/domain';

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
