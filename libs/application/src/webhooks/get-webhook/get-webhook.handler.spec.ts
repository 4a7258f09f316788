import { webhookView } from '@app/domain';
import { ReadModelStore } from '../../ports/read-model.port';
import { WebhookQueue } from '../../ports/webhook-queue.port';
import { GetWebhookHandler } from './get-webhook.handler';
import { GetWebhookQuery } from './get-webhook.query';

/** failure_count and last_triggered_at come from the queue's telemetry, merged at query time. */
describe('GetWebhookHandler', () => {
  const doc = webhookView('whk_0', {
    name: 'Hook whk_0',
    url: 'https://hooks.example/in',
    event_types: ['project.created'],
    status: 'active',
    failure_count: 0,
    created: 1,
    updated: 1,
    created_by: null,
    last_triggered_at: null,
  });
  const read = {
    get: async (_collection: string, id: string) =>
      id === doc.id ? { id, workspaceId: 'ws_1', seq: 1, version: 0, doc } : null,
  } as unknown as ReadModelStore;
  const queue = {
    loadTelemetry: async (ids: readonly string[]) =>
      ids.includes('whk_0')
        ? [
            {
              webhookId: 'whk_0',
              failureCount: 4,
              lastAttemptAt: 40,
              lastTriggeredAt: 40,
              lastResponseStatus: 500,
              attempts: 9,
              failures: 9,
              resetGeneration: 0,
            },
          ]
        : [],
  } as unknown as WebhookQueue;

  it('shows one webhook with its telemetry', async () => {
    expect(await new GetWebhookHandler(read, queue).execute(new GetWebhookQuery('ws_1', 'whk_0'))).toMatchObject({
      id: 'whk_0',
      failure_count: 4,
      last_triggered_at: 40,
    });
  });

  it("answers another workspace's webhook, and a missing one, as not found", async () => {
    await expect(new GetWebhookHandler(read, queue).execute(new GetWebhookQuery('ws_other', 'whk_0'))).rejects.toThrow(
      'Webhook not found',
    );
    await expect(new GetWebhookHandler(read, queue).execute(new GetWebhookQuery('ws_1', 'whk_9'))).rejects.toThrow(
      'Webhook not found',
    );
  });
});
