import { randomUUID } from 'node:crypto';
import { DeadLetter, FindQuery, ReadModelStore } from '@app/application/ports';

/**
 * The behaviour every ReadModelStore adapter must show. Run by
 * sqlite-read-model-store.contract.spec.ts (always) and mongodb-read-model-store.contract.spec.ts
 * (when MONGODB_URL is set). Workspace ids are random so suites can share a database.
 */
export function readModelContract(
  name: string,
  open: () => Promise<{ store: ReadModelStore; close: () => Promise<void> }>,
  options: {
    /**
     * The adapter refuses a write older than what its document reflects (WriteOp's `at`): every
     * adapter more than one process could write (MongoDB). The SQLite adapter has one writer by
     * the OS lock on its DATA_DIR and does not keep positions per document.
     */
    guardsStaleWrites?: boolean;
  } = {},
) {
  describe(`ReadModelStore contract: ${name}`, () => {
    let store: ReadModelStore;
    let close: () => Promise<void>;
    let ws: string;
    const checkpoint = () => `cp_${ws}`;

    beforeEach(async () => {
      ({ store, close } = await open());
      await store.init([{ name: 'things', indexes: ['status'] }, { name: 'others' }]);
      ws = `ws_${randomUUID().replace(/-/g, '')}`;
    });
    afterEach(async () => {
      await close();
    });

    const put = (id: string, seq: number, doc: Record<string, unknown>, workspaceId = ws) => ({
      op: 'put' as const,
      collection: 'things',
      id,
      workspaceId,
      seq,
      doc: { id, ...doc },
    });
    const uid = () => `t_${randomUUID()}`;

    it('puts, gets, merges and deletes documents with their checkpoint', async () => {
      const id = uid();
      await store.apply([put(id, 1, { name: 'a', status: 'draft', nested: { x: 1 }, tags: ['p'], end: null })], {
        [checkpoint()]: 1,
      });
      expect(await store.get('things', id)).toEqual({
        id,
        workspaceId: ws,
        seq: 1,
        version: 0,
        doc: { id, name: 'a', status: 'draft', nested: { x: 1 }, tags: ['p'], end: null },
      });
      await store.apply([{ op: 'merge', collection: 'things', id, set: { status: 'planned', end: '2026-01-02' } }], {
        [checkpoint()]: 2,
      });
      expect((await store.get('things', id))?.doc).toEqual({
        id,
        name: 'a',
        status: 'planned',
        nested: { x: 1 },
        tags: ['p'],
        end: '2026-01-02',
      });
      expect((await store.getCheckpoints())[checkpoint()]).toBe(2);
      await store.apply([{ op: 'delete', collection: 'things', id }], { [checkpoint()]: 3 });
      expect(await store.get('things', id)).toBeNull();
      expect((await store.getCheckpoints())[checkpoint()]).toBe(3);
    });

    it('applies calls in the order they were made, also when one is made before the last resolved', async () => {
      // A replay keeps several batches in flight: a later batch's merge must find the document an
      // earlier batch put, and the last checkpoint is the one that stays.
      const [a, b] = [uid(), uid()];
      const calls: Promise<void>[] = [];
      for (let n = 1; n <= 20; n++) {
        calls.push(
          store.apply(
            n === 1
              ? [put(a, 1, { n: 1 }), put(b, 1, { n: 1 })]
              : n === 20
                ? [{ op: 'delete', collection: 'things', id: b }]
                : [
                    { op: 'merge', collection: 'things', id: a, set: { n } },
                    { op: 'merge', collection: 'things', id: b, set: { n } },
                  ],
            { [checkpoint()]: n },
          ),
        );
      }
      await Promise.all(calls);
      expect((await store.get('things', a))?.doc).toEqual({ id: a, n: 19 });
      expect(await store.get('things', b)).toBeNull();
      expect((await store.getCheckpoints())[checkpoint()]).toBe(20);
    });

    it('keeps the version of the aggregate a document mirrors', async () => {
      const id = uid();
      await store.apply([{ ...put(id, 1, { status: 'draft' }), version: 0 }], {});
      expect((await store.get('things', id))?.version).toBe(0);
      await store.apply([{ op: 'merge', collection: 'things', id, version: 3, set: { status: 'planned' } }], {});
      expect((await store.get('things', id))?.version).toBe(3);
      await store.apply([{ op: 'merge', collection: 'things', id, set: { status: 'other' } }], {});
      const after = await store.get('things', id);
      expect(after?.version).toBe(3);
      expect(after?.doc).toEqual({ id, status: 'other' });
      const [listed] = await store.find('things', { workspaceId: ws, limit: 1 });
      expect(listed.version).toBe(3);
    });

    it('merges like a spread of the fields into the document: null is kept, undefined removes, new fields come last', async () => {
      const id = uid();
      await store.apply(
        [put(id, 1, { name: 'a', status: 'draft', end: '2026-01-01', note: 'x', nested: { x: 1 } })],
        {},
      );
      await store.apply(
        [
          {
            op: 'merge',
            collection: 'things',
            id,
            set: { end: null, note: undefined, nested: { y: [1, 'two', null, true] }, added: false, 'odd key': 'kept' },
          },
        ],
        {},
      );
      const merged = await store.get('things', id);
      expect(merged?.doc).toEqual({
        id,
        name: 'a',
        status: 'draft',
        end: null,
        nested: { y: [1, 'two', null, true] },
        added: false,
        'odd key': 'kept',
      });
      // Field order as `{ ...doc, ...set }` gives it: the document's own first, new ones after.
      expect(Object.keys(merged!.doc)).toEqual(['id', 'name', 'status', 'end', 'nested', 'added', 'odd key']);
      // A declared (indexed) field changed by a merge is found by its new value.
      await store.apply([{ op: 'merge', collection: 'things', id, set: { status: 'planned' } }], {});
      expect(
        (await store.find('things', { workspaceId: ws, where: { status: 'planned' }, limit: 5 })).map((d) => d.id),
      ).toEqual([id]);
      expect(await store.find('things', { workspaceId: ws, where: { status: 'draft' }, limit: 5 })).toEqual([]);
    });

    it('answers every value as it was written, from get and from find alike', async () => {
      const id = uid();
      const doc = {
        id,
        status: 'draft',
        text: 'quote " and \\ and \u2028 and é',
        nested: { list: [1.5, null, true] },
        big: 12345678901,
      };
      await store.apply([{ ...put(id, 7, doc), version: 3 }], {});
      expect(await store.get('things', id)).toEqual({ id, workspaceId: ws, seq: 7, version: 3, doc });
      expect(await store.find('things', { workspaceId: ws, limit: 5 })).toEqual([
        { id, workspaceId: ws, seq: 7, version: 3, doc },
      ]);
    });

    it('answers each read with every write before it, however often the same read was made', async () => {
      const other = `ws_${randomUUID().replace(/-/g, '')}`;
      await store.apply(
        [
          put('a' + ws, 10, { status: 'draft', archived: false }),
          put('b' + ws, 20, { status: 'planned', archived: false }),
          put('c' + ws, 30, { status: 'draft', archived: true }),
          put('o' + ws, 15, { status: 'draft', archived: false }, other),
        ],
        {},
      );
      const queries: FindQuery[] = [
        { workspaceId: ws, limit: 10 },
        { workspaceId: ws, afterSeq: 10, limit: 1 },
        { workspaceId: ws, where: { status: 'draft' }, limit: 10 },
        { workspaceId: ws, where: { archived: false, status: { in: ['planned', 'draft'] } }, limit: 10 },
        { workspaceId: other, limit: 10 },
      ];
      const read = async () => ({
        documents: await Promise.all(['a', 'b', 'c', 'o'].map((k) => store.get('things', k + ws))),
        pages: await Promise.all(queries.map((query) => store.find('things', query))),
      });
      const ids = async () => {
        const { documents, pages } = await read();
        return {
          documents: documents.map((d) => (d ? `${d.id.slice(0, 1)}:${String(d.doc.status)}:${d.version}` : null)),
          pages: pages.map((page) => page.map((d) => `${d.id.slice(0, 1)}:${String(d.doc.status)}`)),
        };
      };
      // Read over and over (an adapter may keep what is read again), then changed in every way.
      for (let i = 0; i < 3; i++) await read();
      await store.apply(
        [{ op: 'merge', collection: 'things', id: 'a' + ws, version: 2, set: { status: 'planned' } }],
        {},
      );
      expect(await ids()).toEqual({
        documents: ['a:planned:2', 'b:planned:0', 'c:draft:0', 'o:draft:0'],
        pages: [
          ['a:planned', 'b:planned', 'c:draft'],
          ['b:planned'],
          ['c:draft'],
          ['a:planned', 'b:planned'],
          ['o:draft'],
        ],
      });
      for (let i = 0; i < 3; i++) await read();
      await store.apply(
        [
          put('b' + ws, 20, { status: 'draft', archived: false }),
          put('d' + ws, 40, { status: 'draft', archived: false }),
          { op: 'delete', collection: 'things', id: 'c' + ws },
        ],
        {},
      );
      expect(await ids()).toEqual({
        documents: ['a:planned:2', 'b:draft:0', null, 'o:draft:0'],
        pages: [
          ['a:planned', 'b:draft', 'd:draft'],
          ['b:draft'],
          ['b:draft', 'd:draft'],
          ['a:planned', 'b:draft', 'd:draft'],
          ['o:draft'],
        ],
      });
      for (let i = 0; i < 3; i++) await read();
      await store.apply([{ op: 'deleteWhere', collection: 'things', workspaceId: ws, where: { status: 'draft' } }], {});
      expect(await ids()).toEqual({
        documents: ['a:planned:2', null, null, 'o:draft:0'],
        pages: [['a:planned'], [], [], ['a:planned'], ['o:draft']],
      });
    });

    it('hands out a new array from each find: a caller may reorder it', async () => {
      await store.apply([put('a' + ws, 1, { status: 'draft' }), put('b' + ws, 2, { status: 'draft' })], {});
      const query = { workspaceId: ws, limit: 5 };
      for (let i = 0; i < 3; i++) (await store.find('things', query)).reverse();
      expect((await store.find('things', query)).map((d) => d.id)).toEqual(['a' + ws, 'b' + ws]);
    });

    it('answers the same for collections filled in bulk, before and after they are swapped in', async () => {
      const a = uid();
      const b = uid();
      await store.drop(['things_bulk'], []);
      await store.init([{ name: 'things_bulk', indexes: ['status'] }], { bulkLoad: true });
      const bulkPut = (id: string, seq: number, doc: Record<string, unknown>) => ({
        op: 'put' as const,
        collection: 'things_bulk',
        id,
        workspaceId: ws,
        seq,
        doc: { id, ...doc },
      });
      await store.apply(
        [
          bulkPut(a, 1, { status: 'draft', parent: 'p1' }),
          bulkPut(b, 2, { status: 'draft', parent: 'p2' }),
          { op: 'merge', collection: 'things_bulk', id: b, version: 4, set: { status: 'planned' } },
        ],
        {},
      );
      expect((await store.get('things_bulk', b))?.version).toBe(4);
      expect(
        (await store.find('things_bulk', { workspaceId: ws, where: { status: 'draft' }, limit: 5 })).map((d) => d.id),
      ).toEqual([a]);
      await store.apply(
        [{ op: 'deleteWhere', collection: 'things_bulk', workspaceId: ws, where: { parent: 'p1' } }],
        {},
      );
      expect(await store.count('things_bulk', { workspaceId: ws })).toBe(1);
      await store.swap([{ from: 'things_bulk', to: 'things' }], { [checkpoint()]: 2 }, []);
      expect(
        (await store.find('things', { workspaceId: ws, where: { status: 'planned' }, limit: 5 })).map((d) => d.id),
      ).toEqual([b]);
      expect((await store.find('things', { workspaceId: ws, limit: 5 })).map((d) => d.doc)).toEqual([
        { id: b, status: 'planned', parent: 'p2' },
      ]);
    });

    it('ignores a merge into a missing document and a delete of one', async () => {
      const id = uid();
      await store.apply(
        [
          { op: 'merge', collection: 'things', id, set: { name: 'ghost' } },
          { op: 'delete', collection: 'things', id },
        ],
        {},
      );
      expect(await store.get('things', id)).toBeNull();
    });

    it('applies a put twice without duplicating (replay after a crash)', async () => {
      const id = uid();
      await store.apply([put(id, 5, { status: 'draft' })], {});
      await store.apply([put(id, 5, { status: 'draft' })], {});
      expect(await store.count('things', { workspaceId: ws })).toBe(1);
    });

    it('finds by workspace in seq order with a cursor, equality and membership filters', async () => {
      const other = `ws_${randomUUID().replace(/-/g, '')}`;
      await store.apply(
        [
          put('a' + ws, 30, { status: 'draft', archived: false, n: 3 }),
          put('b' + ws, 10, { status: 'planned', archived: false, n: 1 }),
          put('c' + ws, 20, { status: 'other', archived: true, n: 2 }),
          put('d' + ws, 40, { status: 'draft', archived: false, end: null, n: 4 }),
          put('e' + ws, 15, { status: 'draft', archived: false }, other),
        ],
        {},
      );
      const all = await store.find('things', { workspaceId: ws, limit: 10 });
      expect(all.map((d) => d.seq)).toEqual([10, 20, 30, 40]);
      const page = await store.find('things', { workspaceId: ws, afterSeq: 20, limit: 1 });
      expect(page.map((d) => d.seq)).toEqual([30]);
      const drafts = await store.find('things', { workspaceId: ws, where: { status: 'draft' }, limit: 10 });
      expect(drafts.map((d) => d.seq)).toEqual([30, 40]);
      const some = await store.find('things', {
        workspaceId: ws,
        where: { status: { in: ['planned', 'other'] } },
        limit: 10,
      });
      expect(some.map((d) => d.seq)).toEqual([10, 20]);
      const archived = await store.find('things', { workspaceId: ws, where: { archived: true }, limit: 10 });
      expect(archived.map((d) => d.seq)).toEqual([20]);
      const notArchived = await store.find('things', { workspaceId: ws, where: { archived: false }, limit: 10 });
      expect(notArchived.map((d) => d.seq)).toEqual([10, 30, 40]);
      const ranged = await store.find('things', { workspaceId: ws, where: { n: { gte: 2, lte: 3 } }, limit: 10 });
      expect(ranged.map((d) => d.seq)).toEqual([20, 30]);
      const from = await store.find('things', { workspaceId: ws, where: { n: { gte: 3 } }, limit: 10 });
      expect(from.map((d) => d.seq)).toEqual([30, 40]);
      const none = await store.find('things', { workspaceId: ws, where: { status: { in: [] } }, limit: 10 });
      expect(none).toEqual([]);
      expect(await store.count('things', { workspaceId: ws, where: { status: 'draft' } })).toBe(2);
      expect(await store.count('things', { workspaceId: other })).toBe(1);
    });

    it('orders documents written at one position by id, whatever the order they were written in', async () => {
      // One event can write several documents (same seq). Written here in reverse id order, in two
      // batches, with one of them deleted and written again: insertion order and storage order
      // both differ from id order, so only a real tie-breaker gives the expected lists.
      const ids = ['a', 'b', 'c', 'd', 'e'].map((letter) => `${letter}_${ws}`);
      const status = (id: string) => (id.startsWith('b') || id.startsWith('d') ? 'planned' : 'draft');
      await store.apply([put(ids[4], 7, { status: status(ids[4]) }), put(ids[3], 7, { status: status(ids[3]) })], {});
      await store.apply(
        [
          put(ids[2], 7, { status: status(ids[2]) }),
          put(ids[1], 7, { status: status(ids[1]) }),
          put(ids[0], 7, { status: status(ids[0]) }),
          put(`z_${ws}`, 3, { status: 'draft' }),
          put(`y_${ws}`, 9, { status: 'planned' }),
        ],
        {},
      );
      await store.apply([{ op: 'delete', collection: 'things', id: ids[2] }], {});
      await store.apply([put(ids[2], 7, { status: status(ids[2]) })], {});

      const all = await store.find('things', { workspaceId: ws, limit: 10 });
      expect(all.map((d) => d.id)).toEqual([`z_${ws}`, ...ids, `y_${ws}`]);
      for (let limit = 1; limit <= all.length; limit++) {
        const page = await store.find('things', { workspaceId: ws, limit });
        expect(page.map((d) => d.id)).toEqual(all.slice(0, limit).map((d) => d.id));
      }
      const drafts = await store.find('things', { workspaceId: ws, where: { status: 'draft' }, limit: 10 });
      expect(drafts.map((d) => d.id)).toEqual([`z_${ws}`, ids[0], ids[2], ids[4]]);
      const firstTwoDrafts = await store.find('things', {
        workspaceId: ws,
        where: { status: 'draft' },
        afterSeq: 3,
        limit: 2,
      });
      expect(firstTwoDrafts.map((d) => d.id)).toEqual([ids[0], ids[2]]);
      const either = await store.find('things', {
        workspaceId: ws,
        where: { status: { in: ['planned', 'draft'] } },
        limit: 10,
      });
      expect(either.map((d) => d.id)).toEqual(all.map((d) => d.id));
      const planned = await store.find('things', { workspaceId: ws, where: { status: 'planned' }, limit: 10 });
      expect(planned.map((d) => d.doc.id)).toEqual([ids[1], ids[3], `y_${ws}`]);
    });

    it('finds across workspaces by an indexed field', async () => {
      const marker = `status_${randomUUID()}`;
      await store.apply([put(uid(), 1, { status: marker }), put(uid(), 2, { status: marker }, `other_${ws}`)], {});
      const found = await store.find('things', { where: { status: marker }, limit: 10 });
      expect(found).toHaveLength(2);
    });

    it('finds by a field indexed within a workspace, and refuses to look for it across workspaces', async () => {
      await store.init([{ name: 'scoped', workspaceIndexes: ['status'] }]);
      const other = `other_${ws}`;
      const doc = (id: string, seq: number, status: string, workspaceId = ws) => ({
        ...put(id, seq, { status }, workspaceId),
        collection: 'scoped',
      });
      await store.apply(
        [doc(uid(), 3, 'draft'), doc(uid(), 1, 'planned'), doc(uid(), 2, 'draft'), doc(uid(), 4, 'draft', other)],
        {},
      );
      const drafts = await store.find('scoped', { workspaceId: ws, where: { status: 'draft' }, limit: 10 });
      expect(drafts.map((d) => d.seq)).toEqual([2, 3]);
      const planned = await store.find('scoped', {
        workspaceId: ws,
        where: { status: { in: ['planned'] } },
        limit: 10,
      });
      expect(planned.map((d) => d.seq)).toEqual([1]);
      expect(await store.count('scoped', { workspaceId: other, where: { status: 'draft' } })).toBe(1);

      const refused = /scoped\.status is indexed within a workspace only/;
      await expect(store.find('scoped', { where: { status: 'draft' }, limit: 10 })).rejects.toThrow(refused);
      await expect(store.count('scoped', { where: { status: 'draft' } })).rejects.toThrow(refused);
      // Without a filter on it, a query across workspaces is what it was.
      expect(await store.find('scoped', { where: { other: 'x' }, limit: 10 })).toEqual([]);
    });

    it('lists newest first, between exclusive bounds, in the reverse of the list order', async () => {
      const ids = ['a', 'b', 'c'].map((letter) => `${letter}_${ws}`);
      await store.apply(
        [
          put(`z_${ws}`, 3, { status: 'draft' }),
          put(ids[1], 7, { status: 'draft' }),
          put(ids[0], 7, { status: 'planned' }),
          put(ids[2], 7, { status: 'draft' }),
          put(`y_${ws}`, 9, { status: 'draft' }),
        ],
        {},
      );
      const ascending = await store.find('things', { workspaceId: ws, limit: 10 });
      const descending = await store.find('things', { workspaceId: ws, descending: true, limit: 10 });
      expect(descending.map((d) => d.id)).toEqual(ascending.map((d) => d.id).reverse());
      const older = await store.find('things', { workspaceId: ws, descending: true, beforeSeq: 9, limit: 2 });
      expect(older.map((d) => d.id)).toEqual([ids[2], ids[1]]);
      const drafts = await store.find('things', {
        workspaceId: ws,
        where: { status: 'draft' },
        descending: true,
        limit: 10,
      });
      expect(drafts.map((d) => d.seq)).toEqual([9, 7, 7, 3]);
      const between = await store.find('things', { workspaceId: ws, afterSeq: 3, beforeSeq: 9, limit: 10 });
      expect(between.map((d) => d.id)).toEqual(ids);
    });

    it.each(['indexed', 'scanned'] as const)(
      'finds by a dotted path into a nested object, declared in every kind of index or not at all; listed across workspaces %s',
      async (across) => {
        const collection = `nested_${across}`;
        await store.init([
          {
            name: collection,
            indexes: ['owner.kind'],
            workspaceIndexes: ['owner.team'],
            orderedIndexes: ['owner.id'],
            listedAcrossWorkspaces: across,
          },
        ]);
        const other = `other_${ws}`;
        const marker = `m_${randomUUID()}`;
        const doc = (id: string, seq: number, owner: Record<string, unknown>, workspaceId = ws) => ({
          ...put(id, seq, { owner, tag: { name: marker } }, workspaceId),
          collection,
        });
        await store.apply(
          [
            doc(uid(), 1, { kind: 'member', id: `mem_1${ws}`, team: 'a' }),
            doc(uid(), 2, { kind: 'key', id: `key_1${ws}`, team: 'b' }),
            doc(uid(), 3, { kind: 'member', id: `mem_1${ws}`, team: 'b' }),
            doc(uid(), 4, { kind: 'operator' }, other),
          ],
          {},
        );
        const byId = await store.find(collection, { where: { 'owner.id': `mem_1${ws}` }, descending: true, limit: 10 });
        expect(byId.map((d) => d.seq)).toEqual([3, 1]);
        const inWorkspace = await store.find(collection, {
          workspaceId: ws,
          where: { 'owner.kind': 'member' },
          limit: 10,
        });
        expect(inWorkspace.map((d) => d.seq)).toEqual([1, 3]);
        const team = await store.find(collection, { workspaceId: ws, where: { 'owner.team': 'b' }, limit: 10 });
        expect(team.map((d) => d.seq)).toEqual([2, 3]);
        // Listed across workspaces: a field indexed within a workspace filters the walk of every tenant.
        const operators = await store.find(collection, {
          where: { 'owner.kind': 'operator', 'tag.name': marker },
          limit: 10,
        });
        expect(operators.map((d) => d.workspaceId)).toEqual([other]);
        const newest = await store.find(collection, { where: { 'tag.name': marker }, descending: true, limit: 2 });
        expect(newest.map((d) => d.seq)).toEqual([4, 3]);
        expect(await store.count(collection, { where: { 'owner.team': 'b', 'tag.name': marker } })).toBe(2);
        await expect(store.find(collection, { where: { 'owner..id': 'x' }, limit: 1 })).rejects.toThrow(
          /Invalid field name/,
        );
      },
    );

    it('deletes by filter within one workspace only', async () => {
      const other = `ws_${randomUUID().replace(/-/g, '')}`;
      await store.apply(
        [
          put(uid(), 1, { parent: 'p1' }),
          put(uid(), 2, { parent: 'p1' }),
          put(uid(), 3, { parent: 'p2' }),
          put(uid(), 4, { parent: 'p1' }, other),
        ],
        {},
      );
      await store.apply([{ op: 'deleteWhere', collection: 'things', workspaceId: ws, where: { parent: 'p1' } }], {});
      expect(await store.count('things', { workspaceId: ws })).toBe(1);
      expect(await store.count('things', { workspaceId: other })).toBe(1);
    });

    it('keeps collections apart and drops a collection with its checkpoints', async () => {
      const id = uid();
      await store.apply(
        [put(id, 1, { status: 'x' }), { op: 'put', collection: 'others', id, workspaceId: ws, seq: 1, doc: { id } }],
        { [checkpoint()]: 7 },
      );
      await store.drop(['things'], [checkpoint()]);
      await store.init([{ name: 'things', indexes: ['status'] }]);
      expect(await store.get('things', id)).toBeNull();
      expect(await store.get('others', id)).not.toBeNull();
      expect((await store.getCheckpoints())[checkpoint()]).toBeUndefined();
    });

    it('scans every document of a collection in id order', async () => {
      const ids = [uid(), uid(), uid()];
      await store.apply(
        ids.map((id, i) => put(id, i, { n: i })),
        {},
      );
      const seen: string[] = [];
      for await (const doc of store.scan('things')) if (ids.includes(doc.id)) seen.push(doc.id);
      expect(seen).toEqual([...ids].sort());
    });

    it('swaps a rebuilt collection in for the live one, with its indexes and checkpoint', async () => {
      const live = uid();
      const rebuilt = uid();
      await store.apply([put(live, 1, { status: 'stale' })], { [checkpoint()]: 1 });
      await store.drop(['things_next'], []);
      await store.init([{ name: 'things_next', indexes: ['status'] }]);
      await store.apply(
        [
          {
            op: 'put',
            collection: 'things_next',
            id: rebuilt,
            workspaceId: ws,
            seq: 2,
            doc: { id: rebuilt, status: 'fresh' },
          },
        ],
        { [`${checkpoint()}_next`]: 9 },
      );
      await store.swap([{ from: 'things_next', to: 'things' }], { [checkpoint()]: 9 }, [`${checkpoint()}_next`]);
      expect(await store.get('things', live)).toBeNull();
      expect((await store.get('things', rebuilt))?.doc).toEqual({ id: rebuilt, status: 'fresh' });
      expect(await store.find('things', { where: { status: 'fresh' }, workspaceId: ws, limit: 5 })).toHaveLength(1);
      const checkpoints = await store.getCheckpoints();
      expect(checkpoints[checkpoint()]).toBe(9);
      expect(checkpoints[`${checkpoint()}_next`]).toBeUndefined();
      // The live collection keeps working for writes after the swap.
      await store.apply([{ op: 'merge', collection: 'things', id: rebuilt, set: { status: 'after' } }], {});
      expect((await store.get('things', rebuilt))?.doc.status).toBe('after');
      // And a new rebuild can start again under the old name.
      await store.init([{ name: 'things_next', indexes: ['status'] }]);
      expect(await store.count('things_next', {})).toBe(0);
    });

    it('never moves a checkpoint backwards, through apply or swap; a dropped one starts over', async () => {
      await store.apply([], { [checkpoint()]: 7 });
      await store.apply([], { [checkpoint()]: 3 });
      expect((await store.getCheckpoints())[checkpoint()]).toBe(7);
      await store.init([{ name: 'things_next' }]);
      await store.swap([{ from: 'things_next', to: 'others' }], { [checkpoint()]: 5 }, []);
      expect((await store.getCheckpoints())[checkpoint()]).toBe(7);
      await store.apply([], { [checkpoint()]: 8 });
      expect((await store.getCheckpoints())[checkpoint()]).toBe(8);
      await store.drop([], [checkpoint()]);
      await store.apply([], { [checkpoint()]: 2 });
      expect((await store.getCheckpoints())[checkpoint()]).toBe(2);
    });

    (options.guardsStaleWrites ? describe : describe.skip)('writes stamped with their position (at)', () => {
      const at = <T extends object>(position: number, op: T) => ({ ...op, at: position });

      it('leaves the newer document when an older put, merge or delete arrives after it', async () => {
        const id = uid();
        await store.apply([at(5, put(id, 1, { name: 'newer', status: 'planned' }))], {});
        await store.apply(
          [
            at(3, put(id, 1, { name: 'older', status: 'draft' })),
            at(4, { op: 'merge' as const, collection: 'things', id, set: { name: 'older' } }),
            at(2, { op: 'delete' as const, collection: 'things', id }),
            at(4, { op: 'deleteWhere' as const, collection: 'things', workspaceId: ws, where: { status: 'planned' } }),
          ],
          {},
        );
        expect((await store.get('things', id))?.doc).toEqual({ id, name: 'newer', status: 'planned' });
      });

      it('applies every write of one event, and of later ones', async () => {
        const [a, b] = [uid(), uid()];
        await store.apply([at(5, put(a, 5, { name: 'a' })), at(5, put(b, 5, { name: 'b' }))], {});
        await store.apply(
          [
            at(5, { op: 'merge' as const, collection: 'things', id: a, set: { status: 'planned' } }),
            at(6, put(b, 5, { name: 'b6' })),
          ],
          {},
        );
        await store.apply([at(6, { op: 'merge' as const, collection: 'things', id: a, set: { name: 'a6' } })], {});
        expect((await store.get('things', a))?.doc).toEqual({ id: a, name: 'a6', status: 'planned' });
        expect((await store.get('things', b))?.doc).toEqual({ id: b, name: 'b6' });
        await store.apply([at(7, { op: 'delete' as const, collection: 'things', id: b })], {});
        expect(await store.get('things', b)).toBeNull();
      });

      it('keeps the values of a guarded put as written, including text that looks like an operator', async () => {
        const id = uid();
        const doc = { name: '$name', nested: { $literal: 1, path: '$$ROOT' }, list: ['$x'] };
        await store.apply([at(1, put(id, 1, doc))], {});
        expect((await store.get('things', id))?.doc).toEqual({ id, ...doc });
      });
    });

    const letter = (position: number, overrides: Partial<DeadLetter> = {}): DeadLetter => ({
      projection: checkpoint(),
      position,
      eventId: `evt_${position}`,
      streamId: `thing-${position}`,
      eventType: 'thing.broken',
      error: 'projector failed',
      firstFailedAt: 1_000,
      lastFailedAt: 1_000,
      attempts: 1,
      ...overrides,
    });

    it('parks dead letters with the batch that moves past them, and lists them per projection in order', async () => {
      const id = uid();
      const other = `${checkpoint()}_other`;
      await store.apply(
        [put(id, 5, { status: 'draft' })],
        { [checkpoint()]: 7, [other]: 7 },
        {
          park: [letter(6), letter(4), letter(2, { projection: other })],
        },
      );
      expect((await store.get('things', id))?.doc).toEqual({ id, status: 'draft' });
      expect((await store.getCheckpoints())[checkpoint()]).toBe(7);
      expect(await store.listDeadLetters(checkpoint())).toEqual([letter(4), letter(6)]);
      expect(await store.listDeadLetters(other)).toEqual([letter(2, { projection: other })]);
      const all = (await store.listDeadLetters()).filter(
        (d) => d.projection === checkpoint() || d.projection === other,
      );
      // Projection then position order: `<cp>` sorts before `<cp>_other`.
      expect(all.map((d) => [d.projection, d.position])).toEqual([
        [checkpoint(), 4],
        [checkpoint(), 6],
        [other, 2],
      ]);
      await store.apply([], {}, { remove: [{ projection: other, position: 2 }] });
      expect(await store.listDeadLetters(other)).toEqual([]);
    });

    it('replaces a re-parked dead letter and removes one atomically with the ops of its retry', async () => {
      const id = uid();
      await store.apply([], { [checkpoint()]: 3 }, { park: [letter(3)] });
      await store.apply([], {}, { park: [letter(3, { error: 'still failing', lastFailedAt: 2_000, attempts: 2 })] });
      expect(await store.listDeadLetters(checkpoint())).toEqual([
        letter(3, { error: 'still failing', lastFailedAt: 2_000, attempts: 2 }),
      ]);
      await store.apply([put(id, 3, { status: 'fixed' })], {}, { remove: [{ projection: checkpoint(), position: 3 }] });
      expect(await store.listDeadLetters(checkpoint())).toEqual([]);
      expect((await store.get('things', id))?.doc.status).toBe('fixed');
      // The checkpoint is left where the batch that parked it put it.
      expect((await store.getCheckpoints())[checkpoint()]).toBe(3);
    });

    it('removes one dead letter by key and says whether there was one', async () => {
      await store.apply([], {}, { park: [letter(8), letter(9)] });
      expect(await store.removeDeadLetter({ projection: checkpoint(), position: 8 })).toBe(true);
      expect(await store.removeDeadLetter({ projection: checkpoint(), position: 8 })).toBe(false);
      expect(await store.removeDeadLetter({ projection: `${checkpoint()}_none`, position: 9 })).toBe(false);
      expect((await store.listDeadLetters(checkpoint())).map((d) => d.position)).toEqual([9]);
    });

    it('parks nothing when a batch fails: the dead letters go with the ops and checkpoints or not at all', async () => {
      await expect(
        store.apply(
          [put(uid(), 1, { status: 'x' }), { op: 'delete', collection: 'missing_collection', id: 'x' }],
          { [checkpoint()]: 10 },
          {
            park: [letter(10)],
          },
        ),
      ).rejects.toThrow();
      expect(await store.listDeadLetters(checkpoint())).toEqual([]);
      expect((await store.getCheckpoints())[checkpoint()]).toBeUndefined();
    });

    it('when it watches checkpoints: tells of a checkpoint written through another connection', async () => {
      if (!store.watchCheckpoints) return; // optional: callers poll instead
      const other = await open();
      let changes = 0;
      let failed: unknown = null;
      const watch = store.watchCheckpoints(
        () => changes++,
        (error) => (failed = error),
      );
      try {
        const deadline = Date.now() + 5000;
        // The watch may start a moment after it is asked for: write until it reports one.
        for (let position = 1; changes === 0 && failed === null && Date.now() < deadline; position++) {
          await other.store.apply([], { [checkpoint()]: position });
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(failed).toBeNull();
        expect(changes).toBeGreaterThan(0);
      } finally {
        await watch.close();
        await other.close();
      }
    });
  });
}
