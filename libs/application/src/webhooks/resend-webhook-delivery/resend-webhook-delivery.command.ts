import { Command, CommandContext } from '../../shared/command-context';

/**
 * Queues one delivery of the subscription again, due now: the same payload and the same id (the
 * `webhook-id` header), so a receiver that already processed it recognises it and skips it.
 */
export class ResendWebhookDeliveryCommand extends Command<{ delivery_id: string }> {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
    readonly deliveryId: string,
  ) {
    super(context);
  }
}
