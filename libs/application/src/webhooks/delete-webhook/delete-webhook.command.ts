import { Command, CommandContext } from '../../shared/command-context';

export class DeleteWebhookCommand extends Command {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
  ) {
    super(context);
  }
}
