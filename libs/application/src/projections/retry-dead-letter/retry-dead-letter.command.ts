import { Command } from '@nestjs/cqrs';
import { DeadLetter } from '../../ports/read-model.port';

export interface DeadLetterRetried {
  outcome: 'applied' | 'failed';
  dead_letter: DeadLetter;
}

/**
 * Reads the parked event again and runs its projection's projector on it: applied (and the dead
 * letter gone) or failed (one more attempt recorded). `position` as the operator wrote it.
 */
export class RetryDeadLetterCommand extends Command<DeadLetterRetried> {
  constructor(
    readonly projection: string,
    readonly position: string,
  ) {
    super();
  }
}
