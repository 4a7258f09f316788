import { Command, CommandContext } from '../../shared/command-context';

export class DeleteJobCommand extends Command {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly jobId: string,
  ) {
    super(context);
  }
}
