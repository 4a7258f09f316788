import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { conflict } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { WEBHOOK_DISPATCHER, WebhookDispatcher } from '../dispatch/webhook-dispatcher';
import { loadOwnWebhook } from '../webhook-access';
import { RecoverWebhookDeliveriesCommand } from './recover-webhook-deliveries.command';

export const WEBHOOK_PAUSED_CANNOT_RECOVER = 'Webhook is paused; set its status to active before recovering deliveries';

@CommandHandler(RecoverWebhookDeliveriesCommand)
export class RecoverWebhookDeliveriesHandler implements ICommandHandler<
  RecoverWebhookDeliveriesCommand,
  { count: number }
> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
    @Inject(WEBHOOK_DISPATCHER) private readonly dispatcher: Pick<WebhookDispatcher, 'wake'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, webhookId, since, until }: RecoverWebhookDeliveriesCommand) {
    const webhook = await loadOwnWebhook(this.repository, context, webhookId);
    // A paused subscription would drop them again at once.
    if (webhook.fields.status !== 'active') throw conflict(WEBHOOK_PAUSED_CANNOT_RECOVER);
    const now = this.clock.now();
    const count = await this.queue.requeueFailed(webhookId, { since, until: until ?? now + 1, now });
    if (count > 0) this.dispatcher.wake();
    return { count };
  }
}
