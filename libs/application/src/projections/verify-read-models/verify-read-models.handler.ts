import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProjectionMaintenance, VerifyReport } from '../projection-maintenance';
import { operatorError, requireProjector } from '../operator-checks';
import { VerifyReadModelsCommand } from './verify-read-models.command';

@CommandHandler(VerifyReadModelsCommand)
export class VerifyReadModelsHandler implements ICommandHandler<VerifyReadModelsCommand, VerifyReport> {
  constructor(private readonly maintenance: ProjectionMaintenance) {}

  async execute(): Promise<VerifyReport> {
    requireProjector(this.maintenance, 'A verification');
    try {
      return await this.maintenance.verify();
    } catch (error) {
      throw operatorError(error);
    }
  }
}
