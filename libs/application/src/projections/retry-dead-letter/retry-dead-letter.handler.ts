import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProjectionEngine } from '../projection-engine';
import { ProjectionMaintenance } from '../projection-maintenance';
import { deadLetterKey, operatorError, requireProjector } from '../operator-checks';
import { DeadLetterRetried, RetryDeadLetterCommand } from './retry-dead-letter.command';

@CommandHandler(RetryDeadLetterCommand)
export class RetryDeadLetterHandler implements ICommandHandler<RetryDeadLetterCommand, DeadLetterRetried> {
  constructor(
    private readonly engine: ProjectionEngine,
    private readonly maintenance: ProjectionMaintenance,
  ) {}

  async execute({ projection, position }: RetryDeadLetterCommand): Promise<DeadLetterRetried> {
    requireProjector(this.maintenance, 'A dead-letter retry');
    const key = deadLetterKey(this.engine, projection, position);
    try {
      const result = await this.engine.retryDeadLetter(key);
      return { outcome: result.outcome, dead_letter: result.deadLetter };
    } catch (error) {
      throw operatorError(error);
    }
  }
}
