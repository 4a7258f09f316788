import { JobChanges } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export class UpdateJobCommand extends Command<{ revision: number }> {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly jobId: string,
    readonly changes: JobChanges,
  ) {
    super(context);
  }
}
