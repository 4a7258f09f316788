import { MemoryRateLimitStore } from '@app/infrastructure/memory';
import { rateLimitStoreContract } from './rate-limit-store.contract';

rateLimitStoreContract('memory', async () => {
  const store = new MemoryRateLimitStore();
  return { store, close: () => store.close() };
});

describe('MemoryRateLimitStore bounds', () => {
  const policy = { name: 'minute', limit: 5, windowMs: 60_000, bucketMs: 1_000 };

  it('keeps at most maxRings counters, dropping idle ones before live ones', async () => {
    const store = new MemoryRateLimitStore({ maxRings: 100 });
    try {
      for (let i = 0; i < 100; i++) await store.consume(`idle-${i}`, [policy], 0);
      // The idle rings have expired by t = 61 s: a new subject makes room by dropping them, not live ones.
      for (let i = 0; i < 5; i++) await store.consume('busy', [policy], 61_000);
      for (let i = 0; i < 90; i++) await store.consume(`new-${i}`, [policy], 61_000);
      expect((await store.consume('busy', [policy], 61_000)).allowed).toBe(false);
      // Past the cap with every ring live, the oldest go: memory stays bounded.
      for (let i = 0; i < 500; i++) await store.consume(`flood-${i}`, [policy], 61_000);
      expect(store.size).toBeLessThanOrEqual(100);
    } finally {
      await store.close();
    }
  });
});
