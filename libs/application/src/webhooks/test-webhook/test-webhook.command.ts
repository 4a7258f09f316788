import { StoredAttempt } from '../../ports/webhook-queue.port';
import { Command, CommandContext } from '../../shared/command-context';

/** Sends one signed `webhook.test` delivery now and answers with the attempt. */
export class TestWebhookCommand extends Command<StoredAttempt> {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
  ) {
    super(context);
  }
}
