import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { parseWebhookUrl, WEBHOOK_MESSAGES } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { LiveWebhook, loadOwnWebhook, onOwnWebhook } from '../webhook-access';
import { WebhookTargetGuard } from '../webhook-target-guard';
import { UpdateWebhookCommand } from './update-webhook.command';

@CommandHandler(UpdateWebhookCommand)
export class UpdateWebhookHandler implements ICommandHandler<UpdateWebhookCommand, { revision: number }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly guard: WebhookTargetGuard,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
  ) {}

  /**
   * `status: active` resets the failure count, which lives in the delivery store: the reset is
   * recorded on the stream as the next reset generation, then applied to the telemetry at once
   * (so the answer's read shows 0). Should this process die in between, the fan-out applies it
   * when it passes the event, and a worker that loaded the new state applies it with its next
   * settle; each generation is applied once, so none of them wipes failures counted after it.
   */
  async execute({ context, webhookId, changes }: UpdateWebhookCommand) {
    // Existence first, so another workspace's webhook is "not found" before its URL is judged.
    const current = await loadOwnWebhook(this.repository, context, webhookId);
    if (changes.url !== undefined && changes.url !== current.fields.url) {
      await this.guard.assertAllowed(parseWebhookUrl(changes.url, WEBHOOK_MESSAGES.urlUpdate));
    }
    const failureCount =
      changes.status === 'active'
        ? ((await this.queue.loadTelemetry([webhookId]))[0]?.failureCount ?? current.fields.failure_count)
        : undefined;
    const outcome = await onOwnWebhook(this.repository, context, webhookId, {
      type: 'UpdateWebhook',
      changes,
      now: this.clock.now(),
      failureCount,
    });
    const after = outcome.state as LiveWebhook;
    if (after.resetGeneration > current.resetGeneration)
      await this.queue.resetFailures(webhookId, after.resetGeneration);
    return { revision: outcome.revision };
  }
}
