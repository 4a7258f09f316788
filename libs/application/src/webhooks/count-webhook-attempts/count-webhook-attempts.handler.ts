import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { AttemptCount, WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { ownWebhookView } from '../webhook-access';
import { CountWebhookAttemptsQuery } from './count-webhook-attempts.query';

@QueryHandler(CountWebhookAttemptsQuery)
export class CountWebhookAttemptsHandler implements IQueryHandler<CountWebhookAttemptsQuery, AttemptCount[]> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ workspaceId, webhookId, bucketMs, periods }: CountWebhookAttemptsQuery): Promise<AttemptCount[]> {
    await ownWebhookView(this.read, workspaceId, webhookId);
    const now = this.clock.now();
    const first = now - (now % bucketMs) - (periods - 1) * bucketMs;
    const counted = new Map(
      (await this.queue.countAttempts(webhookId, { since: first, bucketMs })).map((c) => [c.bucket, c]),
    );
    return Array.from(
      { length: periods },
      (_, i) => counted.get(first + i * bucketMs) ?? { bucket: first + i * bucketMs, succeeded: 0, failed: 0 },
    );
  }
}
