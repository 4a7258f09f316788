import { Command } from '@nestjs/cqrs';
import { RebuildProgress } from '../projection-maintenance';

export interface RebuildStarted {
  message: string;
  projections: string[];
  started: RebuildProgress[];
}

/** Starts a blue/green rebuild of one projection, or of all one after the other (`name` absent). */
export class RebuildProjectionsCommand extends Command<RebuildStarted> {
  constructor(readonly name?: string) {
    super();
  }
}
