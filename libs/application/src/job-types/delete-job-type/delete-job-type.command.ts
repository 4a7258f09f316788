import { Command, CommandContext } from '../../shared/command-context';

export class DeleteJobTypeCommand extends Command {
  constructor(
    context: CommandContext,
    readonly jobTypeId: string,
  ) {
    super(context);
  }
}
