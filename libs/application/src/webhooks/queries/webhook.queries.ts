import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { notFound, WEBHOOK_NOT_FOUND, WebhookView } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { StoredAttempt, WEBHOOK_QUEUE, WebhookQueue, WebhookTelemetry } from '../../ports/webhook-queue.port';
import { decodeCursor, encodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { WEBHOOKS } from '../webhook.projector';

export class GetWebhookQuery extends Query<WebhookView> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
  ) {
    super();
  }
}

export interface WebhookList {
  webhooks: WebhookView[];
  count: number;
  cursor: string | null;
}

export class ListWebhooksQuery extends Query<WebhookList> {
  constructor(
    readonly workspaceId: string,
    readonly cursor?: string,
  ) {
    super();
  }
}

/** One entry of the attempt log, as GET /webhooks/{id}/deliveries shows it. */
export interface DeliveryAttemptView {
  delivery_id: string;
  event_type: string;
  attempt: number;
  attempted_at: number;
  succeeded: boolean;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number;
  error: string | null;
  next_retry_at: number | null;
}

export interface DeliveryAttemptList {
  deliveries: DeliveryAttemptView[];
  count: number;
  cursor: string | null;
}

export class ListWebhookDeliveriesQuery extends Query<DeliveryAttemptList> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly cursor?: string,
  ) {
    super();
  }
}

export function attemptView(attempt: StoredAttempt): DeliveryAttemptView {
  return {
    delivery_id: attempt.deliveryId,
    event_type: attempt.eventType,
    attempt: attempt.attempt,
    attempted_at: attempt.attemptedAt,
    succeeded: attempt.succeeded,
    response_status: attempt.responseStatus,
    response_body: attempt.responseBody,
    duration_ms: attempt.durationMs,
    error: attempt.error,
    next_retry_at: attempt.nextAttemptAt,
  };
}

async function ownWebhook(read: ReadModelStore, workspaceId: string, webhookId: string): Promise<WebhookView> {
  const found = await read.get<WebhookView>(WEBHOOKS, webhookId);
  if (!found || found.workspaceId !== workspaceId) throw notFound(WEBHOOK_NOT_FOUND);
  return found.doc;
}

/**
 * `failure_count` and `last_triggered_at` come from the delivery store's telemetry, merged at
 * query time: one read for a whole page. A subscription without telemetry yet (no attempt since
 * it was created, or only attempts recorded on its stream by an older version) keeps the read
 * model's values, which the projection folded from its events.
 */
export function withTelemetry(views: readonly WebhookView[], telemetry: readonly WebhookTelemetry[]): WebhookView[] {
  const byId = new Map(telemetry.map((t) => [t.webhookId, t]));
  return views.map((view) => {
    const t = byId.get(view.id);
    if (!t) return view;
    return { ...view, failure_count: t.failureCount, last_triggered_at: t.lastTriggeredAt ?? view.last_triggered_at };
  });
}

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery, WebhookView> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
  ) {}

  async execute({ workspaceId, webhookId }: GetWebhookQuery): Promise<WebhookView> {
    const [view, telemetry] = await Promise.all([
      ownWebhook(this.read, workspaceId, webhookId),
      this.queue.loadTelemetry([webhookId]),
    ]);
    return withTelemetry([view], telemetry)[0];
  }
}

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

/** The attempt log, newest first; the cursor pages back in time. */
@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery, DeliveryAttemptList> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
  ) {}

  async execute({ workspaceId, webhookId, cursor }: ListWebhookDeliveriesQuery): Promise<DeliveryAttemptList> {
    await ownWebhook(this.read, workspaceId, webhookId);
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
