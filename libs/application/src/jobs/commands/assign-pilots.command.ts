import { Command, CommandContext } from '../../shared/command-context';

/** Response of POST .../assign (docs/api.md, Jobs), field for field. */
export interface AssignPilotsResult {
  message: string;
  results: { successful: number; skipped: number; failed: number };
  pilots_assigned: string[];
  pilots_skipped: string[];
  occurrences_per_pilot: number;
}

/** Response of POST .../unassign (docs/api.md, Jobs), field for field. */
export interface UnassignPilotsResult {
  message: string;
  pilots_removed: string[];
  assignments_removed: number;
}

export class AssignPilotsCommand extends Command<AssignPilotsResult> {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly jobId: string,
    readonly pilotIds: string[],
  ) {
    super(context);
  }
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
