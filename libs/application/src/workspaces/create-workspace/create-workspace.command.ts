import { Plan } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export class CreateWorkspaceCommand extends Command<{ id: string }> {
  constructor(
    context: CommandContext,
    readonly input: { name: string; plan: Plan; projectLimit: number | null },
  ) {
    super(context);
  }
}
