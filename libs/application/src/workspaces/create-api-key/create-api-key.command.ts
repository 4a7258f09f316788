import { ApiKeyScope } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export class CreateApiKeyCommand extends Command<{ id: string; key: string }> {
  constructor(
    context: CommandContext,
    readonly workspaceId: string,
    readonly input: { name: string; scope: ApiKeyScope },
  ) {
    super(context);
  }
}
