import { Command, CommandContext } from '../../shared/command-context';

export class DeactivateApiKeyCommand extends Command {
  constructor(
    context: CommandContext,
    readonly keyId: string,
  ) {
    super(context);
  }
}
