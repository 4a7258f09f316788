import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WebhookView } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { WEBHOOKS } from '../webhook.projector';
import { withTelemetry } from '../webhook-views';
import { ListWebhooksQuery, WebhookList } from './list-webhooks.query';

@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery, WebhookList> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
  ) {}

  async execute({ workspaceId, cursor }: ListWebhooksQuery): Promise<WebhookList> {
    const found = await this.read.find<WebhookView>(WEBHOOKS, {
      workspaceId,
      afterSeq: decodeCursor(cursor),
      limit: PAGE_SIZE + 1,
    });
    const page = toPage(found);
    const webhooks =
      page.items.length > 0
        ? withTelemetry(page.items, await this.queue.loadTelemetry(page.items.map((w) => w.id)))
        : [];
    return { webhooks, count: webhooks.length, cursor: page.cursor };
  }
}
