import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { RateLimitPolicy, RateLimitStore } from '@app/application/ports';
import { adapterUnderTest, OpenAdapter } from './adapter-under-test';

/**
 * The behaviour every RateLimitStore adapter must show (the sliding window of buckets described
 * in rate-limit-store.port.ts). Run by memory-rate-limit-store.contract.spec.ts and
 * redis-rate-limit-store.contract.spec.ts. Time is passed in, so nothing here sleeps.
 */
export function rateLimitStoreContract(name: string, open: OpenAdapter<RateLimitStore>) {
  describe(`RateLimitStore contract: ${name}`, () => {
    const store = adapterUnderTest(open, 'suite');

    const minute: RateLimitPolicy = { name: 'minute', limit: 5, windowMs: 60_000, bucketMs: 1_000 };
    const second: RateLimitPolicy = { name: 'second', limit: 3, windowMs: 1_000, bucketMs: 100 };
    const subject = () => `s_${randomUUID()}`;
    const T0 = 1_700_000_000_000; // a realistic epoch time, bucket-aligned

    it('admits up to the limit, counting down, then refuses without counting the refusals', async () => {
      const s = subject();
      const remaining: number[] = [];
      for (let i = 0; i < 5; i++) {
        const d = await store.consume(s, [minute], T0 + i);
        expect(d.allowed).toBe(true);
        expect(d.retryAfterMs).toBe(0);
        remaining.push(d.states[0].remaining);
      }
      expect(remaining).toEqual([4, 3, 2, 1, 0]);
      for (let i = 0; i < 3; i++) {
        const refused = await store.consume(s, [minute], T0 + 10_000);
        expect(refused.allowed).toBe(false);
        expect(refused.states[0]).toMatchObject({ policy: minute, remaining: 0 });
      }
      // Refusals were not counted: once the first bucket leaves, exactly its five come back.
      const later = await store.consume(s, [minute], T0 + 61_000);
      expect(later).toMatchObject({ allowed: true, states: [{ remaining: 4 }] });
    });

    it('keeps subjects apart', async () => {
      const a = subject();
      const b = subject();
      for (let i = 0; i < 5; i++) await store.consume(a, [minute], T0);
      expect((await store.consume(a, [minute], T0)).allowed).toBe(false);
      expect(await store.consume(b, [minute], T0)).toMatchObject({ allowed: true, states: [{ remaining: 4 }] });
    });

    it('gives no second quota at a window edge: the bucket before the edge still counts', async () => {
      const s = subject();
      // Five requests in the last millisecond of a minute, five more right after it.
      for (let i = 0; i < 5; i++) expect((await store.consume(s, [minute], T0 + 59_999)).allowed).toBe(true);
      for (const t of [T0 + 60_000, T0 + 60_001, T0 + 90_000, T0 + 119_999]) {
        expect((await store.consume(s, [minute], t)).allowed).toBe(false);
      }
      expect((await store.consume(s, [minute], T0 + 120_000)).allowed).toBe(true);
    });

    it('says exactly when a refused subject will be admitted again', async () => {
      const s = subject();
      await store.consume(s, [minute], T0 + 200); // bucket T0/1000
      for (let i = 0; i < 4; i++) await store.consume(s, [minute], T0 + 5_500); // bucket +5
      const refused = await store.consume(s, [minute], T0 + 30_000);
      expect(refused.allowed).toBe(false);
      // The oldest request leaves when its bucket (T0 .. T0+999) is 61 buckets old.
      expect(refused.retryAfterMs).toBe(61_000 - 30_000);
      expect((await store.consume(s, [minute], T0 + 30_000 + refused.retryAfterMs - 1)).allowed).toBe(false);
      expect((await store.consume(s, [minute], T0 + 30_000 + refused.retryAfterMs)).allowed).toBe(true);
    });

    it('reports when the full quota is back (resetMs), and 0 when nothing is counted', async () => {
      const s = subject();
      const first = await store.consume(s, [minute], T0 + 1_250);
      expect(first.states[0].resetMs).toBe(62_000 - 1_250);
      const next = await store.consume(s, [minute], T0 + 10_000);
      expect(next.states[0].resetMs).toBe(71_000 - 10_000);
      const quiet = await store.consume(subject(), [second], T0);
      expect(quiet.states[0].resetMs).toBe(1_100);
    });

    it('admits only when every policy has room and then counts in all of them', async () => {
      const s = subject();
      for (let i = 0; i < 3; i++) expect((await store.consume(s, [minute, second], T0 + i)).allowed).toBe(true);
      const refused = await store.consume(s, [minute, second], T0 + 50);
      expect(refused.allowed).toBe(false);
      expect(refused.states.map((x) => [x.policy.name, x.remaining])).toEqual([
        ['minute', 2],
        ['second', 0],
      ]);
      expect(refused.retryAfterMs).toBe(1_100 - 50);
      const again = await store.consume(s, [minute, second], T0 + 1_100);
      expect(again.allowed).toBe(true);
      expect(again.states.map((x) => x.remaining)).toEqual([1, 2]);
      // Now the minute policy is the one that refuses, with its own (longer) wait.
      await store.consume(s, [minute, second], T0 + 1_200);
      const byMinute = await store.consume(s, [minute, second], T0 + 1_300);
      expect(byMinute.allowed).toBe(false);
      expect(byMinute.states.map((x) => x.remaining)).toEqual([0, 1]);
      expect(byMinute.retryAfterMs).toBe(61_000 - 1_300);
    });

    it("keeps each policy's count for a subject whatever policies, and in whatever order, it is counted under", async () => {
      const s = subject();
      await store.consume(s, [minute], T0);
      await store.consume(s, [minute, second], T0 + 1);
      const reversed = await store.consume(s, [second, minute], T0 + 2);
      expect(reversed.states.map((x) => [x.policy.name, x.remaining])).toEqual([
        ['second', 1],
        ['minute', 2],
      ]);
      const alone = await store.consume(s, [second], T0 + 3);
      expect(alone.allowed).toBe(true);
      expect(alone.states.map((x) => [x.policy.name, x.remaining])).toEqual([['second', 0]]);
      expect((await store.consume(s, [minute, second], T0 + 4)).allowed).toBe(false);
      expect((await store.consume(s, [minute], T0 + 5)).states.map((x) => x.remaining)).toEqual([1]);
    });

    it('never admits more than the limit to concurrent callers', async () => {
      const s = subject();
      const policy = { name: 'burst', limit: 10, windowMs: 60_000, bucketMs: 1_000 };
      const decisions = await Promise.all(Array.from({ length: 50 }, () => store.consume(s, [policy], T0)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    });

    it('holds "at most limit in any window" for any arrival pattern, and serves again after a quiet window', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 4_000 }), { minLength: 1, maxLength: 60 }),
          async (offsets) => {
            const s = subject();
            const times = [...offsets].sort((a, b) => a - b).map((o) => T0 + o);
            const admitted: number[] = [];
            for (const t of times) if ((await store.consume(s, [second], t)).allowed) admitted.push(t);
            for (const t of admitted) {
              expect(admitted.filter((u) => u > t - second.windowMs && u <= t).length).toBeLessThanOrEqual(
                second.limit,
              );
            }
            // Liveness: the first request always passes, and so does one after a window and a bucket of quiet.
            expect(admitted[0]).toBe(times[0]);
            const quietAt = times[times.length - 1] + second.windowMs + second.bucketMs;
            expect((await store.consume(s, [second], quietAt)).allowed).toBe(true);
          },
        ),
        { numRuns: 40 },
      );
    });
  });
}
