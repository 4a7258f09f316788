import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProjectionMaintenance, RebuildProgress } from '../projection-maintenance';
import { operatorError, requireProjector } from '../operator-checks';
import { RebuildProjectionsCommand, RebuildStarted } from './rebuild-projections.command';

/** Starts the rebuild and answers at once; the progress is in the projection status. */
@CommandHandler(RebuildProjectionsCommand)
export class RebuildProjectionsHandler implements ICommandHandler<RebuildProjectionsCommand, RebuildStarted> {
  constructor(private readonly maintenance: ProjectionMaintenance) {}

  async execute({ name }: RebuildProjectionsCommand): Promise<RebuildStarted> {
    requireProjector(this.maintenance, 'A rebuild');
    const names = name ? [name] : (await this.maintenance.status()).map((s) => s.name);
    const started: RebuildProgress[] = [];
    try {
      const first = this.maintenance.startRebuild(names[0]);
      this.maintenance.queue(names.slice(1));
      started.push(first.progress);
      // The others follow in turn, so a full rebuild never doubles the load.
      void names.slice(1).reduce(
        (previous, next) => previous.then(() => this.maintenance.startRebuild(next).done).catch(() => undefined),
        first.done.catch(() => undefined),
      );
    } catch (error) {
      throw operatorError(error);
    }
    return { message: `Rebuilding ${names.join(', ')}`, projections: names, started };
  }
}
