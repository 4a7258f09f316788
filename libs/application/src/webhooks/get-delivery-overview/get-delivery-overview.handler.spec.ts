import { ReadModelStore } from '../../ports/read-model.port';
import { TroubledSubscription, WebhookQueue } from '../../ports/webhook-queue.port';
import { GetWebhookPauseHandler } from '../get-webhook-pause/get-webhook-pause.handler';
import { GetWebhookPauseQuery } from '../get-webhook-pause/get-webhook-pause.query';
import { GetDeliveryOverviewHandler } from './get-delivery-overview.handler';
import { GetDeliveryOverviewQuery } from './get-delivery-overview.query';

describe('GetDeliveryOverviewHandler', () => {
  const HOUR = 3_600_000;
  const now = Date.UTC(2026, 10, 28, 10, 30);
  const tenOClock = Date.UTC(2026, 10, 28, 10);
  const docs: Record<string, { url: string; status: string }> = {
    whk_paused: { url: 'https://a.example/in', status: 'paused' },
    whk_failing: { url: 'https://b.example/in', status: 'active' },
  };
  const troubled = (webhookId: string, active: boolean, failureCount: number): TroubledSubscription => ({
    webhookId,
    workspaceId: 'ws_1',
    active,
    failureCount,
    lastAttemptAt: 5,
    lastResponseStatus: 503,
  });

  it('joins the queue’s paused and failing subscriptions with their URL and pause, and fills every period', async () => {
    const calls: unknown[] = [];
    const read = {
      get: async (_c: string, id: string) => (docs[id] ? { id, workspaceId: 'ws_1', doc: docs[id] } : null),
    } as unknown as ReadModelStore;
    const queue = {
      deliveryBacklog: async () => ({ pending: 4, retrying: 1 }),
      troubledSubscriptions: async (limit: number) => {
        calls.push(['troubled', limit]);
        return [troubled('whk_paused', false, 3), troubled('whk_failing', true, 2), troubled('whk_gone', false, 1)];
      },
      countAllAttempts: async (options: unknown) => {
        calls.push(['attempts', options]);
        return [{ bucket: tenOClock - HOUR, succeeded: 2, failed: 1 }];
      },
    } as unknown as WebhookQueue;
    const pauses = {
      execute: async ({ webhookId }: GetWebhookPauseQuery) =>
        webhookId === 'whk_paused' ? { reason: 'consecutive_failures', at: 42, failure_count: 3 } : null,
    } as unknown as GetWebhookPauseHandler;
    const overview = await new GetDeliveryOverviewHandler(read, queue, { now: () => now }, pauses).execute(
      new GetDeliveryOverviewQuery({ bucketMs: HOUR, periods: 3, limit: 10 }),
    );
    expect(calls).toEqual([
      ['troubled', 10],
      ['attempts', { since: tenOClock - 2 * HOUR, bucketMs: HOUR }],
    ]);
    expect(overview.backlog).toEqual({ pending: 4, retrying: 1 });
    expect(
      overview.subscriptions.map((s) => [s.id, s.url, s.status, s.failure_count, s.pause_reason, s.paused_at]),
    ).toEqual([
      ['whk_paused', 'https://a.example/in', 'paused', 3, 'consecutive_failures', 42],
      ['whk_failing', 'https://b.example/in', 'active', 2, null, null],
      // Deleted since the queue last heard of it: no URL, no stream to read a pause from.
      ['whk_gone', null, 'paused', 1, null, null],
    ]);
    expect(overview.attempts).toEqual([
      { bucket: tenOClock - 2 * HOUR, succeeded: 0, failed: 0 },
      { bucket: tenOClock - HOUR, succeeded: 2, failed: 1 },
      { bucket: tenOClock, succeeded: 0, failed: 0 },
    ]);
    expect(overview.bucket_ms).toBe(HOUR);
  });
});
