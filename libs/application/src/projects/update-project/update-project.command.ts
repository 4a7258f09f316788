import { ProjectChanges } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export class UpdateProjectCommand extends Command<{ revision: number }> {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly changes: Omit<ProjectChanges, 'archived'>,
    /** The project revision the client last saw (If-Match); a stale one is refused with 412. */
    readonly expectedRevision?: number,
  ) {
    super(context);
  }
}
