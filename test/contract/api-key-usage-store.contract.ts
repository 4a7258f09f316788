import { randomUUID } from 'node:crypto';
import { ApiKeyUsageStore } from '@app/application/ports';
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
  });
}
