import { createHash, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStore, LedgerSigner, NewEvent } from '@app/application/ports';
import { SqliteEventStore, SqliteLedgerStore } from '@app/infrastructure/sqlite';
import { Ledger, LedgerSourceMismatchError } from './ledger';

/*
 * The proofs the service hands out, checked by an implementation of RFC 9162 written here from
 * the RFC's text alone (section 2.1), sharing no code with the service: leaf and node hashing, the
 * leaf encoding of docs/ledger.md, and the verification algorithms of 2.1.3.2 and 2.1.4.2.
 */
const sha256 = (...parts: Buffer[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const H_LEAF = (leaf: Buffer) => sha256(Buffer.from([0x00]), leaf);
const H_NODE = (l: Buffer, r: Buffer) => sha256(Buffer.from([0x01]), l, r);

function field(bytes: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bytes.length);
  return Buffer.concat([len, bytes]);
}
/** docs/ledger.md, "Leaves". */
function leafOf(e: {
  position: number;
  streamId: string;
  revision: number;
  id: string;
  type: string;
  schemaVersion: number;
  data: Buffer;
  metadata: Buffer;
}): Buffer {
  const text = (s: string) => field(Buffer.from(s, 'utf8'));
  return Buffer.concat([
    text('workspace-operations ledger leaf v1'),
    text(String(e.position)),
    text(e.streamId),
    text(String(e.revision)),
    text(e.id),
    text(e.type),
    text(String(e.schemaVersion)),
    field(sha256(e.data)),
    field(e.metadata),
  ]);
}

/** MTH, recursively, as 2.1.1 writes it. */
function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return sha256();
  if (d.length === 1) return H_LEAF(d[0]);
  let k = 1;
  while (k << 1 < d.length) k <<= 1;
  return H_NODE(mth(d.slice(0, k)), mth(d.slice(k)));
}

/** 2.1.3.2 */
function checkInclusion(index: number, size: number, leafHash: Buffer, path: Buffer[], root: Buffer): boolean {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of path) {
    if (sn === 0) return false;
    if ((fn & 1) === 1 || fn === sn) {
      r = H_NODE(p, r);
      if ((fn & 1) === 0) {
        do {
          fn >>= 1;
          sn >>= 1;
        } while ((fn & 1) === 0 && fn !== 0);
      }
    } else {
      r = H_NODE(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && r.equals(root);
}

/** 2.1.4.2 */
function checkConsistency(m: number, n: number, r1: Buffer, r2: Buffer, proof: Buffer[]): boolean {
  if (m === n) return proof.length === 0 && r1.equals(r2);
  const p = (m & (m - 1)) === 0 ? [r1, ...proof] : proof.slice();
  let fn = m - 1;
  let sn = n - 1;
  while ((fn & 1) === 1) {
    fn >>= 1;
    sn >>= 1;
  }
  let fr = p[0];
  let sr = p[0];
  for (const c of p.slice(1)) {
    if (sn === 0) return false;
    if ((fn & 1) === 1 || fn === sn) {
      fr = H_NODE(c, fr);
      sr = H_NODE(c, sr);
      if ((fn & 1) === 0) {
        do {
          fn >>= 1;
          sn >>= 1;
        } while ((fn & 1) === 0 && fn !== 0);
      }
    } else {
      sr = H_NODE(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && fr.equals(r1) && sr.equals(r2);
}

const hex = (s: string) => Buffer.from(s, 'hex');

/** An event of the one type these specs append; only its id, data and time differ between them. */
function testEvent(id: string, data: Record<string, unknown> = {}, recordedAt = 1): NewEvent {
  return {
    id,
    type: 'test.happened',
    schemaVersion: 1,
    data,
    metadata: {
      workspaceId: null,
      actor: { type: 'operator' },
      requestId: null,
      correlationId: 'c',
      causationId: null,
      recordedAt,
    },
  } as NewEvent;
}

/** Appends each event as the first of a stream named after it, in one write. */
const appendEachToOwnStream = (events: EventStore, list: NewEvent[]) =>
  events.appendToStreams(list.map((e) => ({ streamId: e.id, events: [e], expectedRevision: 'no_stream' as const })));

/** A signer over a fresh Ed25519 key, with the public key that checks its signatures. */
function ed25519Signer(): { signer: LedgerSigner; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
  return {
    publicKey,
    signer: {
      keyId: createHash('sha256').update(raw).digest().subarray(0, 8).toString('hex'),
      publicKey: raw,
      sign: (message) => sign(null, message, privateKey),
    },
  };
}

/** For specs that never check a signature. */
const blankSigner: LedgerSigner = { keyId: 'k', publicKey: Buffer.alloc(32), sign: () => Buffer.alloc(64) };

/** A temporary directory with an embedded event store and a ledger store in it; `close` removes it all. */
function ledgerFiles(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const events = new SqliteEventStore(join(dir, 'events.db'), { writer: 'inline' });
  const store = new SqliteLedgerStore(join(dir, 'ledger.db'));
  const close = async () => {
    await store.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, events, store, close };
}

/** Steps the ledger until it has taken in every event. */
async function buildAll(ledger: Ledger): Promise<void> {
  while ((await ledger.step()) > 0);
}

/** The leaves of every stored event, encoded here from the bytes as stored. */
const leavesOf = async (events: EventStore) =>
  (await events.readAllStored({ after: 0, maxCount: 10_000 })).map((e) =>
    leafOf({ ...e, data: Buffer.from(e.data), metadata: Buffer.from(e.metadata) }),
  );

describe('Ledger proofs, checked by an independent RFC 9162 implementation', () => {
  let files: ReturnType<typeof ledgerFiles>;
  let events: EventStore;
  let store: SqliteLedgerStore;
  let ledger: Ledger;
  const { signer, publicKey } = ed25519Signer();
  const N = 37;

  beforeAll(async () => {
    files = ledgerFiles('ledger-proofs-');
    ({ events, store } = files);
    ledger = new Ledger(events, store, signer, { headIntervalMs: 0 });
    for (let i = 0; i < N; i++) {
      const e = testEvent(`ev-${i}`, { n: i, text: 'é' }, 1_700_000_000_000);
      await events.appendToStream(`s-${i % 4}`, [e], { expectedRevision: 'any' });
    }
    await buildAll(ledger);
  });

  afterAll(() => files.close());

  const leaves = () => leavesOf(events);

  it('signs a head whose root is the MTH of the events as stored, with a signature over the documented text', async () => {
    const head = await ledger.signHead();
    expect(head.size).toBe(N);
    expect(head.root).toBe(mth(await leaves()).toString('hex'));
    const text = `workspace-operations ledger head v1\nsize=${head.size}\nroot=${head.root}\nsigned_at=${head.signed_at}\n`;
    expect(verify(null, Buffer.from(text), publicKey, Buffer.from(head.signature, 'base64'))).toBe(true);
    expect(head.key_id).toBe(signer.keyId);
  });

  it('gives inclusion proofs that verify for every leaf at several sizes, and fail for another leaf', async () => {
    const all = await leaves();
    for (const size of [1, 2, 3, 8, 13, 32, N]) {
      for (let m = 0; m < size; m++) {
        const proof = await ledger.inclusion({ eventId: `ev-${m}` }, size);
        expect(proof.leaf_index).toBe(m);
        expect(proof.leaf_hash).toBe(H_LEAF(all[m]).toString('hex'));
        expect(proof.root).toBe(mth(all.slice(0, size)).toString('hex'));
        const path = proof.audit_path.map(hex);
        expect(checkInclusion(m, size, H_LEAF(all[m]), path, hex(proof.root))).toBe(true);
        if (size > 1) expect(checkInclusion(m, size, H_LEAF(all[(m + 1) % size]), path, hex(proof.root))).toBe(false);
      }
    }
    const byPosition = await ledger.inclusion({
      position: (await events.readAllStored({ after: 0, maxCount: 1 }))[0].position,
    });
    expect(byPosition.leaf_index).toBe(0);
  });

  it('gives consistency proofs that verify between every pair of sizes, and fail against another root', async () => {
    const all = await leaves();
    for (let m = 1; m <= N; m++) {
      for (let n = m; n <= N; n++) {
        const proof = await ledger.consistency(m, n);
        expect(proof.first_root).toBe(mth(all.slice(0, m)).toString('hex'));
        expect(proof.second_root).toBe(mth(all.slice(0, n)).toString('hex'));
        const hashes = proof.proof.map(hex);
        expect(checkConsistency(m, n, hex(proof.first_root), hex(proof.second_root), hashes)).toBe(true);
        if (m < n) {
          const forged = H_LEAF(Buffer.from('forged'));
          expect(checkConsistency(m, n, forged, hex(proof.second_root), hashes)).toBe(false);
        }
      }
    }
  });

  it('resumes from its stored state: a second builder over the same files appends only what is new', async () => {
    await events.appendToStream('s-late', [testEvent('ev-late')], { expectedRevision: 'no_stream' });
    const again = new Ledger(events, store, signer, { headIntervalMs: 0 });
    expect(await again.step()).toBe(1);
    expect(await again.step()).toBe(0);
    expect((await again.verify()).matches).toBe(true);
    expect((await store.state()).size).toBe(N + 1);
    expect((await again.signHead()).root).toBe(mth(await leaves()).toString('hex'));
  });
});

describe('Ledger proofs over more leaves than the kept subtrees (2,600)', () => {
  let files: ReturnType<typeof ledgerFiles>;
  let ledger: Ledger;
  const N = 2600;

  beforeAll(async () => {
    files = ledgerFiles('ledger-big-');
    ledger = new Ledger(files.events, files.store, ed25519Signer().signer, { headIntervalMs: 0 });
    await appendEachToOwnStream(
      files.events,
      Array.from({ length: N }, (_, i) => testEvent(`big-${i}`, { i })),
    );
    await buildAll(ledger);
  });

  afterAll(() => files.close());

  const leaves = () => leavesOf(files.events);

  it('gives the same valid proofs when computed and when answered from kept subtrees, and fresh ones after a rebuild', async () => {
    const all = await leaves();
    const root = mth(all);
    for (const round of [1, 2]) {
      for (const m of [0, 1023, 1024, 2047, 2599]) {
        const proof = await ledger.inclusion({ eventId: `big-${m}` });
        expect([round, proof.root]).toEqual([round, root.toString('hex')]);
        expect(checkInclusion(m, N, H_LEAF(all[m]), proof.audit_path.map(hex), root)).toBe(true);
      }
      for (const m of [1, 1024, 1500, 2048]) {
        const proof = await ledger.consistency(m, N);
        expect(checkConsistency(m, N, mth(all.slice(0, m)), root, proof.proof.map(hex))).toBe(true);
      }
    }
    // A history changed under the log, then rebuilt: proofs follow the new leaves, not the kept subtrees.
    const db = new (await import('../../../infrastructure/src/sqlite/sqlite-driver')).default(
      join(files.dir, 'events.db'),
    );
    db.prepare("UPDATE events SET data = '{\"i\":-1}' WHERE event_id = 'big-5'").run();
    db.close();
    await ledger.rebuild();
    const changed = await leaves();
    const proof = await ledger.inclusion({ eventId: 'big-2599' });
    expect(proof.root).toBe(mth(changed).toString('hex'));
    expect(checkInclusion(2599, N, H_LEAF(changed[2599]), proof.audit_path.map(hex), mth(changed))).toBe(true);
  });
});

describe('Ledger on the projector: the build loop and periodic heads', () => {
  it('builds as events come, signs a head each interval when the log grew and none when it did not, and stops', async () => {
    const files = ledgerFiles('ledger-loop-');
    const { events, store } = files;
    const ledger = new Ledger(events, store, ed25519Signer().signer, { headIntervalMs: 60, pollIntervalMs: 5 });
    const append = (id: string) => events.appendToStream(id, [testEvent(id)], { expectedRevision: 'no_stream' });
    try {
      ledger.start();
      await append('a');
      await append('b');
      await new Promise((r) => setTimeout(r, 150));
      expect((await store.state()).size).toBe(2);
      const heads = await store.listHeads({ limit: 10 });
      expect(heads.map((h) => h.head.size)).toEqual([2]); // one head: the log did not grow after it
      await append('c');
      expect((await ledger.signHead()).size).toBe(3); // on demand, waiting for the log to reach the store
      await ledger.stop();
      await append('d');
      await new Promise((r) => setTimeout(r, 100));
      expect((await store.state()).size).toBe(3);
    } finally {
      await ledger.stop();
      await files.close();
    }
  });
});

describe('Ledger and the event store it was built from', () => {
  const signer = blankSigner;
  let dir: string;
  let storeA: SqliteEventStore;
  let storeB: SqliteEventStore;
  let ledgerFile: string;
  const open: SqliteLedgerStore[] = [];
  const ledgerStore = () => {
    const store = new SqliteLedgerStore(ledgerFile);
    open.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-source-'));
    ledgerFile = join(dir, 'ledger.db');
    storeA = new SqliteEventStore(join(dir, 'a.db'), { writer: 'inline' });
    storeB = new SqliteEventStore(join(dir, 'b.db'), { writer: 'inline' });
    for (const store of [storeA, storeB]) {
      await store.appendToStream('s', [testEvent(`${store === storeA ? 'a' : 'b'}-1`)], {
        expectedRevision: 'no_stream',
      });
    }
  });

  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    await storeA.close();
    await storeB.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the store it is built from, and refuses to run on another while it holds leaves', async () => {
    const store = ledgerStore();
    const built = new Ledger(storeA, store, signer, { headIntervalMs: 0 });
    await built.checkSource();
    expect(await store.source()).toEqual(await storeA.identity());
    await buildAll(built);
    await built.checkSource();

    for (const role of ['projector', 'replica'] as const) {
      const other = new Ledger(storeB, ledgerStore(), signer, { headIntervalMs: 0, role });
      const refused = await other.checkSource().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(LedgerSourceMismatchError);
      expect((refused as Error).message).toContain(`built from event store sqlite ${(await storeA.identity()).id}`);
      expect((refused as Error).message).toContain(`is sqlite ${(await storeB.identity()).id}`);
    }
    expect(await store.source()).toEqual(await storeA.identity());
  });

  it('stamps a log that holds leaves but no stamp with the store it runs on (projector only)', async () => {
    const store = ledgerStore();
    const unstamped = new Ledger(storeA, store, signer, { headIntervalMs: 0 });
    await buildAll(unstamped);
    await new Ledger(storeA, store, signer, { headIntervalMs: 0, role: 'replica' }).checkSource();
    expect(await store.source()).toBeNull();
    await unstamped.checkSource();
    expect(await store.source()).toEqual(await storeA.identity());
  });

  it('takes an empty log stamped with another store, and a rebuild stamps the store it read', async () => {
    const store = ledgerStore();
    await store.stampSource(await storeA.identity());
    const onB = new Ledger(storeB, store, signer, { headIntervalMs: 0 });
    await onB.checkSource();
    expect(await store.source()).toEqual(await storeB.identity());

    await store.stampSource(await storeA.identity());
    await onB.rebuild();
    expect(await store.source()).toEqual(await storeB.identity());
    expect((await store.state()).size).toBe(1);
  });
});

describe("Ledger built by the embedded store's writer (buildNext)", () => {
  it.each(['inline', 'worker'] as const)(
    "gives the same leaves, root and state as the event loop's own step (%s), and resumes",
    async (writer) => {
      const files = ledgerFiles('ledger-build-next-');
      const { dir, events, store: own } = files;
      const built = new SqliteLedgerStore(join(dir, 'built.db'), { writer, eventsFile: join(dir, 'events.db') });
      try {
        const append = (from: number, count: number) =>
          appendEachToOwnStream(
            events,
            Array.from({ length: count }, (_, i) => testEvent(`w-${from + i}`, { i: from + i, text: 'é' })),
          );
        await append(0, 1500);
        const byLoop = new Ledger(events, own, blankSigner, { headIntervalMs: 0 });
        const byWriter = new Ledger(events, built, blankSigner, { headIntervalMs: 0 });
        expect(built.buildNext).toBeDefined();
        expect(await byWriter.step()).toBe(1000);
        expect(await byWriter.step()).toBe(500);
        expect(await byWriter.step()).toBe(0);
        await append(1500, 37);
        await buildAll(byWriter);
        await buildAll(byLoop);
        expect(await built.state()).toEqual(await own.state());
        expect(await built.leafHashes(0, 2000)).toEqual(await own.leafHashes(0, 2000));
        expect(await built.leafOfEvent('w-1536')).toEqual(await own.leafOfEvent('w-1536'));
        expect((await byWriter.verify()).matches).toBe(true);
        const proof = await byWriter.inclusion({ eventId: 'w-700' });
        expect(proof).toEqual(await byLoop.inclusion({ eventId: 'w-700' }));
      } finally {
        await built.close();
        await files.close();
      }
    },
  );
});
