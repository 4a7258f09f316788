import { ProjectChanges } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export class UpdateProjectCommand extends Command<{ revision: number }> {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly changes: Omit<ProjectChanges, 'archived'>,
  ) {
    super(context);
  }
}

export class ArchiveProjectCommand extends Command<{ revision: number }> {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly archived: boolean,
  ) {
    super(context);
  }
}

export class DeleteProjectCommand extends Command {
  constructor(
    context: CommandContext,
    readonly projectId: string,
  ) {
    super(context);
  }
}
