import { webhookView, WebhookView } from '@app/domain';
import { ReadModelStore, StoredDocument } from '../../ports/read-model.port';
import { WebhookQueue, WebhookTelemetry } from '../../ports/webhook-queue.port';
import { ListWebhooksHandler } from './list-webhooks.handler';
import { ListWebhooksQuery } from './list-webhooks.query';

/** failure_count and last_triggered_at come from the queue's telemetry, merged at query time. */
describe('ListWebhooksHandler', () => {
  const view = (id: string, legacy: { failure_count?: number; last_triggered_at?: number | null } = {}): WebhookView =>
    webhookView(id, {
      name: `Hook ${id}`,
      url: 'https://hooks.example/in',
      event_types: ['project.created'],
      status: 'active',
      failure_count: legacy.failure_count ?? 0,
      created: 1,
      updated: 1,
      created_by: null,
      last_triggered_at: legacy.last_triggered_at ?? null,
    });
  const stored = (doc: WebhookView, seq: number): StoredDocument<WebhookView> => ({
    id: doc.id,
    workspaceId: 'ws_1',
    seq,
    version: 0,
    doc,
  });
  const telemetry = (webhookId: string, failureCount: number, lastTriggeredAt: number | null): WebhookTelemetry => ({
    webhookId,
    failureCount,
    lastAttemptAt: lastTriggeredAt,
    lastTriggeredAt,
    lastResponseStatus: 500,
    attempts: 9,
    failures: 9,
    resetGeneration: 0,
  });

  const docs = Array.from({ length: 51 }, (_, i) =>
    stored(view(`whk_${i}`, i === 2 ? { failure_count: 7, last_triggered_at: 70 } : {}), i + 1),
  );
  const read = {
    find: async () => docs,
  } as unknown as ReadModelStore;
  let reads: string[][];
  const queue = {
    loadTelemetry: async (ids: readonly string[]) => {
      reads.push([...ids]);
      return [telemetry('whk_0', 4, 40), telemetry('whk_1', 0, null)].filter((t) => ids.includes(t.webhookId));
    },
  } as unknown as WebhookQueue;
  beforeEach(() => (reads = []));

  it('lists a page with one telemetry read for the whole page', async () => {
    const list = await new ListWebhooksHandler(read, queue).execute(new ListWebhooksQuery('ws_1'));
    expect(list.count).toBe(50);
    expect(reads).toEqual([docs.slice(0, 50).map((d) => d.id)]);
    expect(list.webhooks[0]).toMatchObject({ failure_count: 4, last_triggered_at: 40 });
    // Telemetry without a triggered time (only a reset so far) keeps the view's value.
    expect(list.webhooks[1]).toMatchObject({ failure_count: 0, last_triggered_at: null });
    // No telemetry (attempts recorded on the stream by an older version): the projected values.
    expect(list.webhooks[2]).toMatchObject({ failure_count: 7, last_triggered_at: 70 });
    expect(list.webhooks[3]).toEqual(docs[3].doc);
  });
});
