import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { decodeCursor, encodeCursor, PAGE_SIZE } from '../../shared/pagination';
import { ownWebhookView } from '../webhook-access';
import { attemptView } from '../webhook-views';
import { DeliveryAttemptList, ListWebhookDeliveriesQuery } from './list-webhook-deliveries.query';

/** The attempt log, newest first; the cursor pages back in time. */
@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery, DeliveryAttemptList> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
  ) {}

  async execute({ workspaceId, webhookId, cursor }: ListWebhookDeliveriesQuery): Promise<DeliveryAttemptList> {
    await ownWebhookView(this.read, workspaceId, webhookId);
    const found = await this.queue.listAttempts(webhookId, { beforeSeq: decodeCursor(cursor), limit: PAGE_SIZE + 1 });
    const items = found.slice(0, PAGE_SIZE);
    const more = found.length > PAGE_SIZE;
    return {
      deliveries: items.map(attemptView),
      count: items.length,
      cursor: more ? encodeCursor(items[items.length - 1].seq) : null,
    };
  }
}
