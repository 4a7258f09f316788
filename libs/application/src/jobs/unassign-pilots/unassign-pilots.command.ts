import { Command, CommandContext } from '../../shared/command-context';

/** Response of POST .../unassign (docs/api.md, Jobs), field for field. */
export interface UnassignPilotsResult {
  message: string;
  pilots_removed: string[];
  assignments_removed: number;
}

export class UnassignPilotsCommand extends Command<UnassignPilotsResult> {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly jobId: string,
    readonly pilotIds: string[],
  ) {
    super(context);
  }
}
