import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../ports/clock.port';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { WebhookSender } from '../dispatch/webhook-sender';
import { loadOwnWebhook } from '../webhook-access';
import { randomMessageId } from '../webhook-signature';
import { TestWebhookCommand } from './test-webhook.command';

export const TEST_EVENT_TYPE = 'webhook.test';

@CommandHandler(TestWebhookCommand)
export class TestWebhookHandler implements ICommandHandler<TestWebhookCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly sender: WebhookSender,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Works on a paused subscription too: it is how a receiver is checked before re-activation. */
  async execute({ context, webhookId }: TestWebhookCommand) {
    const webhook = await loadOwnWebhook(this.repository, context, webhookId);
    const id = randomMessageId();
    const body = JSON.stringify({
      type: TEST_EVENT_TYPE,
      timestamp: new Date(this.clock.now()).toISOString(),
      data: { webhook_id: webhookId, message: 'This is a test delivery.' },
    });
    const outcome = await this.sender.attempt(
      { webhookId, url: webhook.fields.url, secrets: webhook.secrets },
      { id, body },
    );
    const attempt = {
      deliveryId: id,
      webhookId,
      workspaceId: webhook.workspaceId,
      eventType: TEST_EVENT_TYPE,
      attempt: 1,
      attemptedAt: outcome.attemptedAt,
      durationMs: outcome.durationMs,
      succeeded: outcome.succeeded,
      responseStatus: outcome.responseStatus,
      responseBody: outcome.responseBody,
      error: outcome.error,
      nextAttemptAt: null,
    };
    // The attempt log and last_triggered_at, in one write; nothing on the webhook's stream (a
    // test never changes failure_count nor pauses, so there is no change of state to record).
    await this.queue.recordAttempt(attempt);
    return { ...attempt, seq: 0 };
  }
}
