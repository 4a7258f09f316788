import { Command, CommandContext } from '../../shared/command-context';

export class CreateJobTypeCommand extends Command<{ id: string }> {
  constructor(
    context: CommandContext,
    readonly input: { name: string; icon?: string },
  ) {
    super(context);
  }
}
