import { RedisRateLimitStore } from '@app/infrastructure/redis';
import { RedisServer } from '../support/redis-server';
import { rateLimitStoreContract } from './rate-limit-store.contract';

/** Runs the RateLimitStore contract against a real redis-server started for this file. */
let server: RedisServer;
beforeAll(async () => {
  server = await RedisServer.start();
});
afterAll(() => server?.stop());

rateLimitStoreContract('redis', async () => {
  const store = await RedisRateLimitStore.connect(server.url);
  return { store, close: () => store.close() };
});

describe('RedisRateLimitStore', () => {
  const policy = { name: 'minute', limit: 5, windowMs: 60_000, bucketMs: 1_000 };

  it('loads its script again after the server forgot it (SCRIPT FLUSH, restart)', async () => {
    const store = await RedisRateLimitStore.connect(server.url);
    try {
      expect((await store.consume('flush-a', [policy], 1_000)).allowed).toBe(true);
      const admin = await RedisRateLimitStore.connect(server.url);
      await (admin as unknown as { client: { script(op: string): Promise<unknown> } }).client.script('FLUSH');
      await admin.close();
      expect(await store.consume('flush-a', [policy], 1_001)).toMatchObject({
        allowed: true,
        states: [{ remaining: 3 }],
      });
    } finally {
      await store.close();
    }
  });

  it('lets its keys expire once they count nothing', async () => {
    const store = await RedisRateLimitStore.connect(server.url, { keyPrefix: 'ttl-test:' });
    const client = (store as unknown as { client: { pttl(key: string): Promise<number> } }).client;
    try {
      const now = Date.now();
      await store.consume('ttl-subject', [policy], now);
      const ttl = await client.pttl('ttl-test:{ttl-subject}:minute:1000');
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(61_000);
    } finally {
      await store.close();
    }
  });

  it('fails fast with a clear message when the server cannot be reached', async () => {
    await expect(RedisRateLimitStore.connect('redis://127.0.0.1:1', { connectTimeoutMs: 1_000 })).rejects.toThrow(
      /Cannot reach Redis at redis:\/\/127\.0\.0\.1:1/,
    );
  });
});
