import { randomUUID } from 'node:crypto';
import { OperatorCredentialRecord, OperatorCredentialStore } from '@app/application/ports';
import { adapterUnderTest, OpenAdapter } from './adapter-under-test';

const NOW = 1_800_000_000_000;

/** The behaviour every OperatorCredentialStore adapter must show. */
export function operatorCredentialStoreContract(name: string, open: OpenAdapter<OperatorCredentialStore>) {
  describe(`OperatorCredentialStore contract: ${name}`, () => {
    const store = adapterUnderTest(open);
    const hash = () => randomUUID().replace(/-/g, '');
    const credential = (over: Partial<OperatorCredentialRecord> = {}): OperatorCredentialRecord => ({
      id: `opr_${hash()}`,
      name: 'Night shift',
      role: 'auditor',
      tokenHash: hash(),
      createdAt: NOW,
      revokedAt: null,
      ...over,
    });

    it('finds a credential by its digest only', async () => {
      const stored = credential();
      await store.create(stored);

      expect(await store.findByTokenHash(stored.tokenHash)).toEqual(stored);
      expect(await store.findByTokenHash(hash())).toBeNull();
      expect(await store.findByTokenHash(stored.id)).toBeNull();
      expect(await store.findById(stored.id)).toEqual(stored);
      expect(await store.findById(stored.tokenHash)).toBeNull();
    });

    it('lists every credential in the order they were created', async () => {
      const first = credential({ name: 'first', role: 'operator' });
      const second = credential({ name: 'second', createdAt: NOW + 1 });
      const third = credential({ name: 'third', createdAt: NOW + 2 });
      for (const c of [first, second, third]) await store.create(c);

      expect((await store.list()).map((c) => c.name)).toEqual(['first', 'second', 'third']);
    });

    it('revokes at once, keeps the first revocation time, and says when there is nothing to revoke', async () => {
      const stored = credential();
      await store.create(stored);

      expect(await store.revoke(stored.id, NOW + 5)).toEqual({ ...stored, revokedAt: NOW + 5 });
      expect(await store.findByTokenHash(stored.tokenHash)).toEqual({ ...stored, revokedAt: NOW + 5 });
      expect(await store.revoke(stored.id, NOW + 9)).toEqual({ ...stored, revokedAt: NOW + 5 });
      expect(await store.revoke('opr_missing', NOW)).toBeNull();
    });

    it('refuses a second credential with the same digest', async () => {
      const stored = credential();
      await store.create(stored);
      // The driver's own error (a SqliteError, a MongoServerError E11000), whatever its class.
      const refused = await store.create(credential({ tokenHash: stored.tokenHash })).then(
        () => 'stored',
        () => 'refused',
      );
      expect(refused).toBe('refused');
      expect(await store.list()).toHaveLength(1);
    });
  });
}
