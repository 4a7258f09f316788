import { JobPilotsCommand } from '../job-pilots.command';

/** Response of POST .../unassign (docs/api.md, Jobs), field for field. */
export interface UnassignPilotsResult {
  message: string;
  pilots_removed: string[];
  assignments_removed: number;
}

export class UnassignPilotsCommand extends JobPilotsCommand<UnassignPilotsResult> {}
