import { WebhookChanges } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export class UpdateWebhookCommand extends Command<{ revision: number }> {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
    readonly changes: Omit<WebhookChanges, 'failure_count'>,
  ) {
    super(context);
  }
}
