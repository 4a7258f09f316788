import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { conflict, notFound } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { WEBHOOK_DISPATCHER, WebhookDispatcher } from '../dispatch/webhook-dispatcher';
import { loadOwnWebhook } from '../webhook-access';
import { ResendWebhookDeliveryCommand } from './resend-webhook-delivery.command';

export const WEBHOOK_DELIVERY_NOT_FOUND = 'Delivery not found';
export const WEBHOOK_PAUSED_CANNOT_RESEND = 'Webhook is paused; set its status to active before resending a delivery';
export const WEBHOOK_DELIVERY_ALREADY_QUEUED = 'This delivery is already queued';

@CommandHandler(ResendWebhookDeliveryCommand)
export class ResendWebhookDeliveryHandler implements ICommandHandler<
  ResendWebhookDeliveryCommand,
  { delivery_id: string }
> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
    @Inject(WEBHOOK_DISPATCHER) private readonly dispatcher: Pick<WebhookDispatcher, 'wake'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, webhookId, deliveryId }: ResendWebhookDeliveryCommand) {
    // Another workspace's subscription is "not found" before anything of its deliveries is looked at.
    const webhook = await loadOwnWebhook(this.repository, context, webhookId);
    // A paused subscription would drop it again at once.
    if (webhook.fields.status !== 'active') throw conflict(WEBHOOK_PAUSED_CANNOT_RESEND);
    const outcome = await this.queue.requeueDelivery(webhookId, deliveryId, this.clock.now());
    if (outcome === 'not_found') throw notFound(WEBHOOK_DELIVERY_NOT_FOUND);
    if (outcome === 'already_queued') throw conflict(WEBHOOK_DELIVERY_ALREADY_QUEUED);
    this.dispatcher.wake();
    return { delivery_id: deliveryId };
  }
}
