import { Command, CommandContext } from '../../shared/command-context';

export class ArchiveProjectCommand extends Command<{ revision: number }> {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly archived: boolean,
    readonly expectedRevision?: number,
  ) {
    super(context);
  }
}
