import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DeadLetter } from '../../ports/read-model.port';
import { ProjectionEngine } from '../projection-engine';
import { ProjectionMaintenance } from '../projection-maintenance';
import { deadLetterKey, operatorError, requireProjector } from '../operator-checks';
import { SkipDeadLetterCommand } from './skip-dead-letter.command';

@CommandHandler(SkipDeadLetterCommand)
export class SkipDeadLetterHandler implements ICommandHandler<
  SkipDeadLetterCommand,
  { message: string; dead_letter: DeadLetter }
> {
  constructor(
    private readonly engine: ProjectionEngine,
    private readonly maintenance: ProjectionMaintenance,
  ) {}

  async execute({ projection, position }: SkipDeadLetterCommand) {
    requireProjector(this.maintenance, 'A dead-letter skip');
    const key = deadLetterKey(this.engine, projection, position);
    try {
      return { message: 'Dead letter skipped', dead_letter: await this.engine.skipDeadLetter(key) };
    } catch (error) {
      throw operatorError(error);
    }
  }
}
