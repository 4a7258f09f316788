import { randomUUID } from 'node:crypto';
import { ApiKeyUsageStore, DAILY_REQUESTS_RETENTION_DAYS, DAY_MS } from '@app/application/ports';
import { adapterUnderTest, OpenAdapter } from './adapter-under-test';

/** The behaviour every ApiKeyUsageStore adapter must show (API keys' last use). */
export function apiKeyUsageStoreContract(name: string, open: OpenAdapter<ApiKeyUsageStore>) {
  describe(`ApiKeyUsageStore contract: ${name}`, () => {
    const store = adapterUnderTest(open);
    const key = () => `key_${randomUUID()}`;

    it('keeps the latest use of each key, whatever the order of the flushes', async () => {
      const [a, b, never] = [key(), key(), key()];
      await store.record(new Map([[a, 2000]]));
      await store.record(
        new Map([
          [a, 1000],
          [b, 5000],
        ]),
      );
      await store.record(new Map());

      expect(await store.lastUsed([a, b, never])).toEqual(
        new Map([
          [a, 2000],
          [b, 5000],
        ]),
      );
      expect(await store.lastUsed([])).toEqual(new Map());
    });

    it("adds each flush's requests to the UTC day of its time, per key, and answers the days asked for", async () => {
      const [a, b, quiet] = [key(), key(), key()];
      const day = Date.UTC(2026, 10, 2);
      await store.record(new Map([[a, day - 1]]), new Map([[a, 4]]));
      await store.record(
        new Map([
          [a, day + 1000],
          [b, day + 2000],
          [quiet, day + 3000],
        ]),
        new Map([
          [a, 2],
          [b, 7],
        ]),
      );
      await store.record(new Map([[a, day + DAY_MS - 1]]), new Map([[a, 3]]));
      // A flush without counts (an older caller) records the last use only.
      await store.record(new Map([[b, day + 4000]]));

      expect(await store.dailyRequests([a, b, quiet], day - DAY_MS)).toEqual(
        [
          { keyId: a, day: day - DAY_MS, requests: 4 },
          { keyId: a, day, requests: 5 },
          { keyId: b, day, requests: 7 },
        ].sort((x, y) => (x.keyId < y.keyId ? -1 : x.keyId > y.keyId ? 1 : x.day - y.day)),
      );
      expect(await store.dailyRequests([a], day)).toEqual([{ keyId: a, day, requests: 5 }]);
      expect(await store.dailyRequests([], 0)).toEqual([]);
    });

    it('drops the days older than the retention before the latest time a flush records', async () => {
      const [old, recent] = [key(), key()];
      const today = Date.UTC(2099, 0, 1);
      const firstKept = today - (DAILY_REQUESTS_RETENTION_DAYS - 1) * DAY_MS;
      await store.record(
        new Map([
          [old, firstKept - 1],
          [recent, firstKept],
        ]),
        new Map([
          [old, 5],
          [recent, 6],
        ]),
      );
      expect(await store.dailyRequests([old, recent], 0)).toHaveLength(2);

      await store.record(new Map([[recent, today + 1000]]), new Map([[recent, 1]]));

      expect(await store.dailyRequests([old, recent], 0)).toEqual([
        { keyId: recent, day: firstKept, requests: 6 },
        { keyId: recent, day: today, requests: 1 },
      ]);
    });
  });
}
