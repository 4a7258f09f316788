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
}

export abstract class Command<Result = void> extends CqrsCommand<Result> {
  protected constructor(readonly context: CommandContext) {
    super();
  }
}
