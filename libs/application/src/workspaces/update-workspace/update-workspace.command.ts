import { Plan } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export class UpdateWorkspaceCommand extends Command {
  constructor(
    context: CommandContext,
    readonly workspaceId: string,
    readonly input: { plan?: Plan; projectLimit?: number | null },
  ) {
    super(context);
  }
}
