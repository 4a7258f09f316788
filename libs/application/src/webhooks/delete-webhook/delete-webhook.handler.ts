import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../ports/clock.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { onOwnWebhook } from '../webhook-access';
import { DeleteWebhookCommand } from './delete-webhook.command';

@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, webhookId }: DeleteWebhookCommand) {
    await onOwnWebhook(this.repository, context, webhookId, { type: 'DeleteWebhook', now: this.clock.now() });
  }
}
