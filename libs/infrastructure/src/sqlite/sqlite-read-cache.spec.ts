import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FindQuery, WriteOp } from '@app/application/ports';
import { DEFAULT_READ_CACHE, ReadCache, ReadCacheOptions, Touched } from './sqlite-read-cache';
import { SqliteReadModelStore } from './sqlite-read-model-store';

/**
 * The projector's read cache (sqlite-read-cache.ts): whatever a write through the store changes,
 * every read after the write has ended answers as the file does. Each case reads everything
 * (documents by id, and pages) before a write, so that
 * the cache holds it, then compares every read after the write with a connection that has no
 * cache (what a replica reads).
 */
describe('SqliteReadModelStore read cache', () => {
  let dir: string;
  let cached: SqliteReadModelStore;
  let plain: SqliteReadModelStore;
  const ids = ['a', 'b', 'c', 'd'];
  const pages: FindQuery[] = [
    { workspaceId: 'ws_1', limit: 10 },
    { workspaceId: 'ws_1', where: { status: 'open' }, limit: 10 },
    { workspaceId: 'ws_1', afterSeq: 1, limit: 2 },
    { workspaceId: 'ws_2', limit: 10 },
  ];

  const open = async (options: ReadCacheOptions = DEFAULT_READ_CACHE) => {
    cached = new SqliteReadModelStore(join(dir, 'read.db'), { writer: 'worker', readCache: options });
    await cached.init([{ name: 'things', workspaceIndexes: ['status'] }, { name: 'others' }]);
    plain = new SqliteReadModelStore(join(dir, 'read.db'));
    await plain.init([{ name: 'things', workspaceIndexes: ['status'] }, { name: 'others' }]);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rm-cache-'));
  });
  afterEach(async () => {
    await cached?.close();
    await plain?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const put = (id: string, workspaceId: string, seq: number, status: string): WriteOp => ({
    op: 'put',
    collection: 'things',
    id,
    workspaceId,
    seq,
    version: seq,
    doc: { id, status, n: seq },
  });

  /** Everything a reader can ask, from one store. */
  const everything = async (store: SqliteReadModelStore) => ({
    documents: await Promise.all(ids.map((id) => store.get('things', id))),
    pages: await Promise.all(pages.map((query) => store.find('things', query))),
    other: await store.get('others', 'x'),
  });

  const expectSameAsTheFile = async () => expect(await everything(cached)).toEqual(await everything(plain));

  const seed = async () => {
    // Each read twice: every document and page is kept.
    await cached.apply(
      [
        put('a', 'ws_1', 1, 'open'),
        put('b', 'ws_1', 2, 'closed'),
        put('c', 'ws_1', 3, 'open'),
        put('d', 'ws_2', 4, 'open'),
        { op: 'put', collection: 'others', id: 'x', workspaceId: 'ws_1', seq: 5, doc: { x: 1 } },
      ],
      { p: 5 },
    );
    await expectSameAsTheFile();
    await expectSameAsTheFile();
  };

  const writes: [string, WriteOp[]][] = [
    ['a put of a new document', [put('e', 'ws_1', 6, 'open')]],
    ['a put over a document', [put('b', 'ws_1', 2, 'open')]],
    ['a merge', [{ op: 'merge', collection: 'things', id: 'a', version: 9, set: { status: 'closed' } }]],
    ['a merge of a field a JSON path cannot name', [{ op: 'merge', collection: 'things', id: 'c', set: { 'a-b': 1 } }]],
    ['a merge that only moves the version', [{ op: 'merge', collection: 'things', id: 'c', version: 7, set: {} }]],
    ['a delete', [{ op: 'delete', collection: 'things', id: 'c' }]],
    [
      'a filtered delete',
      [{ op: 'deleteWhere', collection: 'things', workspaceId: 'ws_1', where: { status: 'open' } }],
    ],
    ['a write to another collection', [{ op: 'merge', collection: 'others', id: 'x', set: { x: 2 } }]],
  ];

  it.each(writes)('answers as the file does after %s', async (_name, ops) => {
    await open();
    await seed();
    await cached.apply(ops, { p: 6 });
    await expectSameAsTheFile();
  });

  it('answers as the file does after a drop and after a swap', async () => {
    await open();
    await seed();
    await cached.init([{ name: 'things_next', workspaceIndexes: ['status'] }]);
    await cached.apply([{ ...put('a', 'ws_1', 1, 'rebuilt'), collection: 'things_next' }], { p_next: 1 });
    await cached.swap([{ from: 'things_next', to: 'things' }], { p: 1 }, ['p_next']);
    await plain.init([{ name: 'things', workspaceIndexes: ['status'] }]);
    await expectSameAsTheFile();

    await cached.drop(['others'], []);
    await cached.init([{ name: 'others' }]);
    await expectSameAsTheFile();
  });

  it('answers as the file does after a write that was under way while it read, once the write has ended', async () => {
    await open();
    await seed();
    const writing = cached.apply([put('a', 'ws_1', 1, 'closed'), put('e', 'ws_1', 6, 'open')], { p: 6 });
    // Read (and kept) while the writer thread is at it: before or after its commit.
    await everything(cached);
    await writing;
    await expectSameAsTheFile();
  });

  it('answers as the file does after a write that failed', async () => {
    await open();
    await seed();
    const failing = cached.apply(
      [put('a', 'ws_1', 1, 'closed'), put('e', 'ws_1', 6, 'open')],
      { p: 6 },
      {
        // A dead letter without a projection violates the table's NOT NULL: the transaction rolls back.
        park: [{ projection: null as unknown as string } as never],
      },
    );
    await everything(cached);
    await expect(failing).rejects.toThrow();
    await expectSameAsTheFile();
  });

  it('keeps what is read again: no file read for it until a write changes it', async () => {
    await open();
    await seed(); // every read missed twice: kept
    const reads = jest.spyOn(cached as unknown as { rawStatement: (sql: string) => unknown }, 'rawStatement');
    const gets = jest.spyOn(cached as unknown as { tableStatements: (c: string) => unknown }, 'tableStatements');
    await everything(cached);
    await everything(cached);
    expect(reads).not.toHaveBeenCalled();
    expect(gets).not.toHaveBeenCalled();
    await cached.apply([put('e', 'ws_1', 6, 'open')], { p: 6 });
    gets.mockClear(); // the write's statements
    await everything(cached);
    // The pages of the collection written to, read again; the other collection's document, and
    // the documents the write did not name, were not.
    expect(reads).toHaveBeenCalledTimes(pages.length);
    expect(gets).not.toHaveBeenCalled();
  });

  it('keeps nothing read only once, nor pages asked for in a round longer than it remembers', async () => {
    await open();
    await cached.apply([put('a', 'ws_1', 1, 'open'), put('e', 'ws_1', 6, 'open')], { p: 6 });
    const cache = (cached as unknown as { cache: ReadCache<unknown> }).cache;
    await cached.find('things', pages[0]);
    expect(cache.size.pages).toBe(0);
    await cached.get('things', 'e');
    expect(cache.document('things', 'e')).toBeUndefined();
    await cached.get('things', 'e');
    expect(cache.document('things', 'e')).toBeDefined();
    // A client paging through 200 different pages, twice over: each page missed once per round,
    // too long ago by the second round to count as read again.
    for (let round = 0; round < 2; round++)
      for (let after = 0; after < 200; after++)
        await cached.find('things', { workspaceId: 'ws_1', afterSeq: after, limit: 3 });
    expect(cache.size.pages).toBe(0);
  });

  it('hands every reader the same frozen documents, each page in an array of its own, until a write changes them', async () => {
    await open();
    await seed();
    const first = await cached.find('things', pages[0]);
    const again = await cached.find('things', pages[0]);
    expect(again).not.toBe(first);
    expect(again.every((d, i) => d === first[i] && Object.isFrozen(d) && Object.isFrozen(d.doc))).toBe(true);
    // The array is the reader's: reordering it changes nobody else's answer.
    again.reverse();
    expect(await cached.find('things', pages[0])).toEqual(first);
    const document = (await cached.get('things', 'a'))!;
    expect(await cached.get('things', 'a')).toBe(document);
    expect(() => {
      (document.doc as { status: string }).status = 'changed';
    }).toThrow(TypeError);

    await cached.apply([{ op: 'merge', collection: 'others', id: 'x', set: { x: 3 } }], { p: 6 });
    expect((await cached.find('things', pages[0]))[0]).toBe(first[0]);
    await cached.apply([{ op: 'merge', collection: 'things', id: 'b', set: { n: 20 } }], { p: 7 });
    const changed = await cached.find('things', pages[0]);
    expect(changed).toEqual(await plain.find('things', pages[0]));
    expect(changed.find((d) => d.id === 'b')?.doc).toEqual({ id: 'b', status: 'closed', n: 20 });
  });

  it('holds at most its bounds, the oldest read going first', async () => {
    await open({ documents: 2, pageChars: 1_000 });
    await seed();
    const cache = (cached as unknown as { cache: ReadCache<unknown> }).cache;
    await everything(cached);
    expect(cache.size.documents).toBeLessThanOrEqual(3); // two things, one other
    expect(cache.size.pageChars).toBeLessThanOrEqual(1_000);
    // What it no longer holds is read from the file again, the same as before.
    await expectSameAsTheFile();
  });

  it('is off unless asked for: a store without it reads what another connection wrote', async () => {
    await open();
    await seed();
    const replica = new SqliteReadModelStore(join(dir, 'read.db'));
    await replica.init([{ name: 'things', workspaceIndexes: ['status'] }, { name: 'others' }]);
    try {
      expect((await replica.get('things', 'a'))?.doc).toEqual({ id: 'a', status: 'open', n: 1 });
      await cached.apply([{ op: 'merge', collection: 'things', id: 'a', set: { status: 'closed' } }], { p: 6 });
      expect((await replica.get('things', 'a'))?.doc).toEqual({ id: 'a', status: 'closed', n: 1 });
    } finally {
      await replica.close();
    }
  });
});

describe('ReadCache', () => {
  it('forgets the documents a write names, the pages of the collections it writes to, and whole collections it changes beyond them', () => {
    const cache = new ReadCache<string>({ documents: 10, pageChars: 1000 });
    cache.keepDocument('things', 'a', 'A');
    cache.keepDocument('things', 'b', 'B');
    cache.keepDocument('others', 'x', 'X');
    cache.keepPage('things', 'q', ['A', 'B'], 2);
    cache.keepPage('others', 'q', ['X'], 1);

    const touched = new Touched();
    touched.document('things', 'a');
    cache.forget(touched);
    expect([cache.document('things', 'a'), cache.document('things', 'b')]).toEqual([undefined, 'B']);
    expect([cache.page('things', 'q'), cache.page('others', 'q')]).toEqual([undefined, ['X']]);

    const whole = new Touched();
    whole.collection('others');
    cache.forget(whole);
    expect([cache.document('others', 'x'), cache.page('others', 'q')]).toEqual([undefined, undefined]);
    expect(cache.size).toEqual({ documents: 1, pages: 0, pageChars: 0 });
  });

  it('lets the document and the page kept longest ago go first, per collection', () => {
    const cache = new ReadCache<string>({ documents: 2, pageChars: 10_000 });
    for (const id of ['a', 'b', 'c']) cache.keepDocument('things', id, id.toUpperCase());
    cache.keepDocument('others', 'x', 'X');
    expect(['a', 'b', 'c'].map((id) => cache.document('things', id))).toEqual([undefined, 'B', 'C']);
    expect(cache.document('others', 'x')).toBe('X');

    // Each page counts its texts, its key and 128 for the rest of it: room for two of these.
    const bounded = new ReadCache<string>({ documents: 2, pageChars: 2 * (128 + 2 + 100) + 50 });
    bounded.keepPage('things', 'p1', [], 100);
    bounded.keepPage('things', 'p2', [], 100);
    bounded.keepPage('things', 'p3', [], 100);
    bounded.keepPage('things', 'too big', [], 1000);
    expect(['p1', 'p2', 'p3', 'too big'].map((key) => bounded.page('things', key) !== undefined)).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(bounded.size.pageChars).toBe(2 * (128 + 2 + 100));
  });

  it('counts a page of nothing against its bound: lookups of unknown keys cannot pile up', () => {
    const cache = new ReadCache<string>({ documents: 10, pageChars: 10_000 });
    for (let i = 0; i < 10_000; i++) cache.keepPage('api_keys', `lookup of key ${i}`, [], 0);
    expect(cache.size.pages).toBeLessThan(100);
    expect(cache.size.pageChars).toBeLessThanOrEqual(10_000);
  });
});
