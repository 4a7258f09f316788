import { AttemptCount, WebhookQueue } from '../../ports/webhook-queue.port';
import { ReadModelStore } from '../../ports/read-model.port';
import { CountWebhookAttemptsHandler } from './count-webhook-attempts.handler';
import { CountWebhookAttemptsQuery } from './count-webhook-attempts.query';

describe('CountWebhookAttemptsHandler', () => {
  const HOUR = 3_600_000;
  const now = Date.UTC(2026, 10, 28, 10, 30);
  const own = { id: 'whk_1', workspaceId: 'ws_1', seq: 1, version: 0, doc: { id: 'whk_1', workspace_id: 'ws_1' } };

  function handler(counts: AttemptCount[], calls: unknown[] = []) {
    const read = { get: async (_c: string, id: string) => (id === 'whk_1' ? own : null) } as unknown as ReadModelStore;
    const queue = {
      countAttempts: async (webhookId: string, options: unknown) => {
        calls.push([webhookId, options]);
        return counts;
      },
    } as unknown as WebhookQueue;
    return new CountWebhookAttemptsHandler(read, queue, { now: () => now });
  }

  it('answers every period of the window, oldest first, 0 where there were no attempts', async () => {
    const calls: unknown[] = [];
    const tenOClock = Date.UTC(2026, 10, 28, 10);
    const counts = await handler([{ bucket: tenOClock - HOUR, succeeded: 2, failed: 1 }], calls).execute(
      new CountWebhookAttemptsQuery('ws_1', 'whk_1', HOUR, 3),
    );
    expect(calls).toEqual([['whk_1', { since: tenOClock - 2 * HOUR, bucketMs: HOUR }]]);
    expect(counts).toEqual([
      { bucket: tenOClock - 2 * HOUR, succeeded: 0, failed: 0 },
      { bucket: tenOClock - HOUR, succeeded: 2, failed: 1 },
      { bucket: tenOClock, succeeded: 0, failed: 0 },
    ]);
  });

  it("answers another workspace's subscription as a missing one", async () => {
    await expect(handler([]).execute(new CountWebhookAttemptsQuery('ws_2', 'whk_1', HOUR, 3))).rejects.toThrow(
      'Webhook not found',
    );
  });
});
