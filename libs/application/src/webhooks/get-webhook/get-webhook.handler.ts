import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WebhookView } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { ownWebhookView } from '../webhook-access';
import { withTelemetry } from '../webhook-views';
import { GetWebhookQuery } from './get-webhook.query';

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery, WebhookView> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
  ) {}

  async execute({ workspaceId, webhookId }: GetWebhookQuery): Promise<WebhookView> {
    const [view, telemetry] = await Promise.all([
      ownWebhookView(this.read, workspaceId, webhookId),
      this.queue.loadTelemetry([webhookId]),
    ]);
    return withTelemetry([view], telemetry)[0];
  }
}
