import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { GetWebhookPauseHandler } from '../get-webhook-pause/get-webhook-pause.handler';
import { GetWebhookPauseQuery } from '../get-webhook-pause/get-webhook-pause.query';
import { WEBHOOKS } from '../webhook.projector';
import { DeliveryOverview, GetDeliveryOverviewQuery, TroubledWebhook } from './get-delivery-overview.query';

@QueryHandler(GetDeliveryOverviewQuery)
export class GetDeliveryOverviewHandler implements IQueryHandler<GetDeliveryOverviewQuery, DeliveryOverview> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly pauses: GetWebhookPauseHandler,
  ) {}

  async execute({ options }: GetDeliveryOverviewQuery): Promise<DeliveryOverview> {
    const { bucketMs, periods, limit } = options;
    const now = this.clock.now();
    const first = now - (now % bucketMs) - (periods - 1) * bucketMs;
    const [backlog, troubled, counted] = await Promise.all([
      this.queue.deliveryBacklog(),
      this.queue.troubledSubscriptions(limit),
      this.queue.countAllAttempts({ since: first, bucketMs }),
    ]);
    const byBucket = new Map(counted.map((c) => [c.bucket, c]));
    const subscriptions = await Promise.all(
      troubled.map(async (s): Promise<TroubledWebhook> => {
        const doc = await this.read.get<{ url?: string; status?: string }>(WEBHOOKS, s.webhookId);
        const paused = doc ? doc.doc.status === 'paused' : !s.active;
        const pause =
          doc && paused ? await this.pauses.execute(new GetWebhookPauseQuery(s.workspaceId, s.webhookId)) : null;
        return {
          id: s.webhookId,
          workspace_id: s.workspaceId,
          url: doc?.doc.url ?? null,
          status: paused ? 'paused' : 'active',
          failure_count: s.failureCount,
          last_attempt_at: s.lastAttemptAt,
          last_response_status: s.lastResponseStatus,
          pause_reason: pause?.reason ?? null,
          paused_at: pause?.at ?? null,
        };
      }),
    );
    return {
      backlog,
      subscriptions,
      attempts: Array.from(
        { length: periods },
        (_, i) => byBucket.get(first + i * bucketMs) ?? { bucket: first + i * bucketMs, succeeded: 0, failed: 0 },
      ),
      bucket_ms: bucketMs,
    };
  }
}
