import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteWebhookQueue } from '@app/infrastructure/sqlite';
import { webhookQueueContract } from './webhook-queue.contract';

webhookQueueContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wq-contract-'));
  const file = join(dir, 'webhooks.db');
  const queue = new SqliteWebhookQueue(file);
  return {
    queue,
    openSecond: async () => new SqliteWebhookQueue(file),
    close: async () => {
      await queue.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
