import { CreateJobInput } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export class CreateJobCommand extends Command<{ id: string }> {
  constructor(
    context: CommandContext,
    readonly projectId: string,
    readonly input: CreateJobInput,
  ) {
    super(context);
  }
}
