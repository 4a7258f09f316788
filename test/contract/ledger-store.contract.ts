import { LedgerConflictError, LedgerLeaf, LedgerStore, SignedHead } from '@app/application/ports';
import { adapterUnderTest, OpenAdapter } from './adapter-under-test';

/**
 * The behaviour every LedgerStore adapter must show. Run by sqlite-ledger-store.contract.spec.ts
 * (always) and mongodb-ledger-store.contract.spec.ts (when MONGODB_URL is set).
 */
export function ledgerStoreContract(name: string, open: OpenAdapter<LedgerStore>) {
  describe(`LedgerStore contract: ${name}`, () => {
    const store = adapterUnderTest(open);

    const hash = (n: number) => Buffer.alloc(32, n);
    const leaves = (from: number, count: number): LedgerLeaf[] =>
      Array.from({ length: count }, (_, i) => ({
        index: from + i,
        position: (from + i) * 10 + 1,
        eventId: `ev_${from + i}`,
        hash: hash(from + i),
      }));
    const head = (size: number): SignedHead => ({
      size,
      root: hash(size).toString('hex'),
      signed_at: new Date(1_700_000_000_000 + size).toISOString(),
      key_id: '0011223344556677',
      signature: Buffer.alloc(64, size).toString('base64'),
    });

    it('starts empty', async () => {
      expect(await store.state()).toEqual({ size: 0, checkpoint: 0, frontier: [] });
      expect(await store.leafHashes(0, 10)).toEqual([]);
      expect(await store.listHeads({ limit: 10 })).toEqual([]);
      expect(await store.countHeads()).toBe(0);
      expect(await store.source()).toBeNull();
    });

    it('records the event store the log is built from, one at a time, and keeps it through a clear', async () => {
      await store.stampSource({ kind: 'sqlite', id: 'store-a' });
      expect(await store.source()).toEqual({ kind: 'sqlite', id: 'store-a' });
      await store.stampSource({ kind: 'eventstoredb', id: 'store-b' });
      expect(await store.source()).toEqual({ kind: 'eventstoredb', id: 'store-b' });
      await store.append(leaves(0, 1), { size: 1, checkpoint: 1, frontier: [hash(0)] });
      await store.clearLeaves();
      expect(await store.source()).toEqual({ kind: 'eventstoredb', id: 'store-b' });
    });

    it('keeps leaves and the state of each append, and reads ranges of hashes in order', async () => {
      await store.append(leaves(0, 3), { size: 3, checkpoint: 21, frontier: [hash(100), hash(101)] });
      await store.append(leaves(3, 2), { size: 5, checkpoint: 41, frontier: [hash(102), hash(103)] });
      expect(await store.state()).toEqual({ size: 5, checkpoint: 41, frontier: [hash(102), hash(103)] });
      expect(await store.leafHashes(1, 4)).toEqual([hash(1), hash(2), hash(3)]);
      expect(await store.leafHashes(0, 5)).toHaveLength(5);
    });

    it('finds a leaf by its event position and by its event id', async () => {
      await store.append(leaves(0, 4), { size: 4, checkpoint: 31, frontier: [hash(9)] });
      expect(await store.leafAtPosition(21)).toEqual({ index: 2, position: 21, eventId: 'ev_2', hash: hash(2) });
      expect(await store.leafOfEvent('ev_3')).toEqual({ index: 3, position: 31, eventId: 'ev_3', hash: hash(3) });
      expect(await store.leafAtPosition(22)).toBeUndefined();
      expect(await store.leafOfEvent('nope')).toBeUndefined();
    });

    it('refuses an append that does not continue the stored size, writing nothing', async () => {
      await store.append(leaves(0, 2), { size: 2, checkpoint: 11, frontier: [hash(7)] });
      await expect(store.append(leaves(1, 2), { size: 3, checkpoint: 21, frontier: [] })).rejects.toBeInstanceOf(
        LedgerConflictError,
      );
      await expect(store.append(leaves(3, 1), { size: 4, checkpoint: 31, frontier: [] })).rejects.toBeInstanceOf(
        LedgerConflictError,
      );
      expect((await store.state()).size).toBe(2);
      expect(await store.leafHashes(0, 10)).toEqual([hash(0), hash(1)]);
    });

    it('lists heads newest first, page by page below a seq, and counts them', async () => {
      for (const size of [1, 2, 3]) await store.addHead(head(size));
      const all = await store.listHeads({ limit: 10 });
      expect(all.map((h) => h.head)).toEqual([head(3), head(2), head(1)]);
      const first = await store.listHeads({ limit: 2 });
      expect(first.map((h) => h.head.size)).toEqual([3, 2]);
      const rest = await store.listHeads({ before: first[1].seq, limit: 2 });
      expect(rest.map((h) => h.head.size)).toEqual([1]);
      expect(await store.countHeads()).toBe(3);
    });

    it('clears the leaves and the state for a rebuild, keeping the heads', async () => {
      await store.append(leaves(0, 2), { size: 2, checkpoint: 11, frontier: [hash(7)] });
      await store.addHead(head(2));
      await store.clearLeaves();
      expect(await store.state()).toEqual({ size: 0, checkpoint: 0, frontier: [] });
      expect(await store.leafHashes(0, 10)).toEqual([]);
      expect(await store.leafAtPosition(1)).toBeUndefined();
      expect(await store.countHeads()).toBe(1);
      await store.append(leaves(0, 1), { size: 1, checkpoint: 1, frontier: [hash(0)] });
      expect((await store.state()).size).toBe(1);
    });
  });
}
