import { randomUUID } from 'node:crypto';
import { SubjectKeyStore } from '@app/application/ports';
import { adapterUnderTest, OpenAdapter } from './adapter-under-test';

/** The behaviour every SubjectKeyStore adapter must show (crypto-shredding keys). */
export function subjectKeyStoreContract(name: string, open: OpenAdapter<SubjectKeyStore>) {
  describe(`SubjectKeyStore contract: ${name}`, () => {
    const store = adapterUnderTest(open);

    const subject = () => `usr_${randomUUID()}`;

    it('creates a 256-bit key on first use and returns the same key afterwards', async () => {
      const s = subject();
      expect(await store.get(s)).toBeNull();
      const key = await store.getOrCreate(s);
      expect(key).toHaveLength(32);
      expect((await store.getOrCreate(s))!.equals(key!)).toBe(true);
      expect((await store.get(s))!.equals(key!)).toBe(true);
      expect((await store.getOrCreate(subject()))!.equals(key!)).toBe(false);
    });

    it('agrees on one key under concurrent first uses', async () => {
      const s = subject();
      const keys = await Promise.all(Array.from({ length: 10 }, () => store.getOrCreate(s)));
      for (const key of keys) expect(key!.equals(keys[0]!)).toBe(true);
    });

    it('destroys a key for good: never returned, never re-created', async () => {
      const s = subject();
      await store.getOrCreate(s);
      await store.destroy(s);
      expect(await store.get(s)).toBeNull();
      expect(await store.getOrCreate(s)).toBeNull();
      await store.destroy(s);
      const unknown = subject();
      await store.destroy(unknown);
      expect(await store.getOrCreate(unknown)).toBeNull();
    });
  });
}
