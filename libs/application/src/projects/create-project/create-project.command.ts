import { Status } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export interface CreateProjectInput {
  name: string;
  description: string;
  status: Status;
  other_status_reason?: string;
  start_date: string;
  end_date?: string | null;
  external_id?: string | null;
}

export class CreateProjectCommand extends Command<{ id: string }> {
  constructor(
    context: CommandContext,
    readonly input: CreateProjectInput,
  ) {
    super(context);
  }
}
