import { randomUUID } from 'node:crypto';
import { Snapshot, SnapshotStore } from '@app/application/ports';
import { adapterUnderTest, OpenAdapter } from './adapter-under-test';

/** What every SnapshotStore adapter must do: sqlite-snapshot-store and mongodb-snapshot-store specs. */
export function snapshotStoreContract(name: string, open: OpenAdapter<SnapshotStore>) {
  describe(`SnapshotStore contract: ${name}`, () => {
    const store = adapterUnderTest(open);

    const snapshot = (revision: number, version = 1, state: unknown = { n: revision }): Snapshot => ({
      streamId: 'stream-fixed',
      revision,
      eventId: `evt-${revision}`,
      version,
      state,
    });

    it('has nothing for a stream never snapshotted', async () => {
      expect(await store.get(`s-${randomUUID()}`)).toBeNull();
    });

    it('returns what was put, state included as a fresh value', async () => {
      const s = {
        ...snapshot(7),
        streamId: `s-${randomUUID()}`,
        state: { slots: 3, keys: [['k1', { active: true }]], 'a.b': 1 },
      };
      await store.put(s);
      expect(await store.get(s.streamId)).toEqual(s);
    });

    it('keeps the newest: an older snapshot written later is ignored', async () => {
      const streamId = `s-${randomUUID()}`;
      await store.put({ ...snapshot(20), streamId });
      await store.put({ ...snapshot(10), streamId });
      expect((await store.get(streamId))?.revision).toBe(20);
      await store.put({ ...snapshot(30), streamId });
      expect((await store.get(streamId))?.revision).toBe(30);
    });

    it('a snapshot of a new state shape replaces one of the old shape, whatever their revisions', async () => {
      const streamId = `s-${randomUUID()}`;
      await store.put({ ...snapshot(20, 1), streamId });
      await store.put({ ...snapshot(15, 2), streamId });
      expect(await store.get(streamId)).toMatchObject({ revision: 15, version: 2 });
    });
  });
}
