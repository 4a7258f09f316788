import { Command, CommandContext } from '../../shared/command-context';

/**
 * A member renames statuses of the context's workspace for its dashboard: labels as typed, by
 * status; an empty one gives the status its default label back; statuses left out keep theirs.
 */
export class ChangeStatusLabelsCommand extends Command {
  constructor(
    context: CommandContext,
    readonly labels: Record<string, unknown>,
  ) {
    super(context);
  }
}
