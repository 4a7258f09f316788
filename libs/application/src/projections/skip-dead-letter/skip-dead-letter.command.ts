import { Command } from '@nestjs/cqrs';
import { DeadLetter } from '../../ports/read-model.port';

/** Removes a dead letter without applying its event. `position` as the operator wrote it. */
export class SkipDeadLetterCommand extends Command<{ message: string; dead_letter: DeadLetter }> {
  constructor(
    readonly projection: string,
    readonly position: string,
  ) {
    super();
  }
}
