import { Command } from '@nestjs/cqrs';
import { VerifyReport } from '../projection-maintenance';

/**
 * Replays the store into scratch collections up to the live checkpoint and reports every read-model
 * document that is missing, unexpected or different. A command: only the projector runs it, as it
 * writes the scratch collections.
 */
export class VerifyReadModelsCommand extends Command<VerifyReport> {}
