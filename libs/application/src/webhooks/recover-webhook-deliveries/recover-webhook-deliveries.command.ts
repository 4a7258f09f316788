import { Command, CommandContext } from '../../shared/command-context';

/** Re-queues the failed deliveries created in [since, until). */
export class RecoverWebhookDeliveriesCommand extends Command<{ count: number }> {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
    readonly since: number,
    readonly until: number | undefined,
  ) {
    super(context);
  }
}
