import { Command, CommandContext } from '../../shared/command-context';

export class DeleteProjectCommand extends Command {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly expectedRevision?: number,
  ) {
    super(context);
  }
}
