import { join } from 'node:path';
import Database from './sqlite-driver';
import { StatementsByLimit } from './sqlite-limit';
import {
  HASH_BYTES,
  LedgerAppend,
  LedgerAppendResult,
  LedgerBuilder,
  LedgerBuilt,
  openEventsReader,
  openLedgerAppender,
  openLedgerBuilder,
} from './sqlite-ledger-writer.worker';
import { openSharedFile } from './sqlite-open';
import { SqliteWorkerThread } from './sqlite-worker-thread';
import {
  EventStoreIdentity,
  LedgerConflictError,
  LedgerLeaf,
  LedgerState,
  LedgerStore,
  SignedHead,
  StoredHead,
} from '@app/application/ports';

type LeafRow = [idx: number, position: number, eventId: string, hash: Buffer];
type HeadRow = [seq: number, size: number, root: string, signedAt: string, keyId: string, signature: string];

export interface SqliteLedgerStoreOptions {
  writer?: 'worker' | 'inline';
  /**
   * The embedded event store's file the log is built from: the writer then reads, hashes and
   * appends each batch by itself (`buildNext`), on its thread with `writer: 'worker'`.
   */
  eventsFile?: string;
}

type WriterRequest = LedgerAppend | { build: number };

/**
 * The ledger in its own SQLite file (DATA_DIR/ledger.db), apart from events.db: whoever can write
 * the events can write that file too, but the heads a verifier trusts are signed and kept
 * elsewhere as well, and a file of its own can be dropped and rebuilt without touching the
 * events. Each append (leaves and state) is one transaction, so the state and the leaves always
 * agree and the builder continues from the stored checkpoint. synchronous=NORMAL (WAL): a commit
 * costs no fsync on the projector's event loop; a power cut may lose the last appends (never
 * tear one), which the next start recomputes from the events to the same leaves.
 *
 * Appends are written by sqlite-ledger-writer.worker.js, on a worker thread of their own with
 * `writer: 'worker'` (the projector's choice: a batch's inserts and commit stay off the event loop
 * the API's requests share) or inline on this connection (the default: tools and tests). Given the
 * embedded event store's file, the writer also reads and hashes each batch (`buildNext`).
 */
export class SqliteLedgerStore implements LedgerStore {
  private readonly db: Database.Database;
  private readonly stmt: {
    state: Database.Statement<[], [number, number, string]>;
    size: Database.Statement<[], number>;
    hashes: Database.Statement<[number, number], Buffer>;
    atPosition: Database.Statement<[number], LeafRow>;
    ofEvent: Database.Statement<[string], LeafRow>;
    addHead: Database.Statement<[number, string, string, string, string]>;
    heads: StatementsByLimit<Database.Statement<[number], HeadRow>>;
    countHeads: Database.Statement<[], number>;
    source: Database.Statement<[], [string, string]>;
    stampSource: Database.Statement<[string, string]>;
  };
  private readonly writeAppend: (append: LedgerAppend) => Promise<LedgerAppendResult>;
  private writerThread: SqliteWorkerThread<WriterRequest, LedgerAppendResult | LedgerBuilt> | null = null;
  private eventsReader: Database.Database | null = null;
  readonly buildNext?: (maxCount: number) => Promise<{ appended: number; state: LedgerState }>;

  constructor(file: string, options: SqliteLedgerStoreOptions = {}) {
    this.db = openSharedFile(file);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS ledger_leaves (
        idx INTEGER PRIMARY KEY, position INTEGER NOT NULL, event_id TEXT NOT NULL, hash BLOB NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ledger_leaves_position ON ledger_leaves (position);
      CREATE INDEX IF NOT EXISTS ledger_leaves_event ON ledger_leaves (event_id);
      CREATE TABLE IF NOT EXISTS ledger_state (
        id INTEGER PRIMARY KEY CHECK (id = 1), size INTEGER NOT NULL, checkpoint INTEGER NOT NULL, frontier TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS ledger_heads (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, size INTEGER NOT NULL, root TEXT NOT NULL, signed_at TEXT NOT NULL,
        key_id TEXT NOT NULL, signature TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS ledger_source (
        id INTEGER PRIMARY KEY CHECK (id = 1), kind TEXT NOT NULL, store_id TEXT NOT NULL
      );
    `);
    this.stmt = {
      state: this.db.prepare<[], [number, number, string]>('SELECT size, checkpoint, frontier FROM ledger_state').raw(),
      size: this.db.prepare<[], number>('SELECT count(*) FROM ledger_leaves').pluck(),
      hashes: this.db
        .prepare<[number, number], Buffer>('SELECT hash FROM ledger_leaves WHERE idx >= ? AND idx < ? ORDER BY idx')
        .pluck(),
      atPosition: this.db
        .prepare<[number], LeafRow>('SELECT idx, position, event_id, hash FROM ledger_leaves WHERE position = ?')
        .raw(),
      ofEvent: this.db
        .prepare<[string], LeafRow>('SELECT idx, position, event_id, hash FROM ledger_leaves WHERE event_id = ?')
        .raw(),
      addHead: this.db.prepare(
        'INSERT INTO ledger_heads (size, root, signed_at, key_id, signature) VALUES (?, ?, ?, ?, ?)',
      ),
      heads: new StatementsByLimit((limit) =>
        this.db
          .prepare<[number], HeadRow>(
            `SELECT seq, size, root, signed_at, key_id, signature FROM ledger_heads WHERE seq < ? ORDER BY seq DESC ${limit}`,
          )
          .raw(),
      ),
      countHeads: this.db.prepare<[], number>('SELECT count(*) FROM ledger_heads').pluck(),
      source: this.db.prepare<[], [string, string]>('SELECT kind, store_id FROM ledger_source').raw(),
      stampSource: this.db.prepare(
        `INSERT INTO ledger_source (id, kind, store_id) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, store_id = excluded.store_id`,
      ),
    };
    let build: (maxCount: number) => Promise<LedgerBuilt>;
    if (options.writer === 'worker') {
      // Started with the first write: only the projector writes, a replica never does.
      const thread = () =>
        (this.writerThread ??= new SqliteWorkerThread<WriterRequest, LedgerAppendResult | LedgerBuilt>(
          join(__dirname, 'sqlite-ledger-writer.worker.js'),
          { ledgerFile: file, eventsFile: options.eventsFile },
          'Ledger write',
        ));
      this.writeAppend = (append) => thread().call(append) as Promise<LedgerAppendResult>;
      build = (maxCount) => thread().call({ build: maxCount }) as Promise<LedgerBuilt>;
    } else {
      const inline = openLedgerAppender(this.db);
      this.writeAppend = async (append) => inline.append(append);
      let builder: LedgerBuilder | null = null;
      build = async (maxCount) => {
        builder ??= openLedgerBuilder(this.db, (this.eventsReader = openEventsReader(options.eventsFile!)));
        return builder.build(maxCount);
      };
    }
    if (options.eventsFile) {
      this.buildNext = async (maxCount) => {
        const built = await build(maxCount);
        return {
          appended: built.appended,
          state: {
            size: built.size,
            checkpoint: built.checkpoint,
            frontier: (JSON.parse(built.frontier) as string[]).map((h) => Buffer.from(h, 'hex')),
          },
        };
      };
    }
  }

  async state(): Promise<LedgerState> {
    const row = this.stmt.state.get();
    if (!row) return { size: 0, checkpoint: 0, frontier: [] };
    return {
      size: row[0],
      checkpoint: row[1],
      frontier: (JSON.parse(row[2]) as string[]).map((h) => Buffer.from(h, 'hex')),
    };
  }

  async append(leaves: LedgerLeaf[], next: LedgerState): Promise<void> {
    const first = leaves.length > 0 ? leaves[0].index : next.size;
    const hashes = Buffer.alloc(leaves.length * HASH_BYTES);
    leaves.forEach((leaf, i) => leaf.hash.copy(hashes, i * HASH_BYTES));
    const result = await this.writeAppend({
      first,
      hashes,
      positions: leaves.map((leaf) => leaf.position),
      eventIds: leaves.map((leaf) => leaf.eventId),
      size: next.size,
      checkpoint: next.checkpoint,
      frontier: JSON.stringify(next.frontier.map((h) => h.toString('hex'))),
    });
    if (result) throw new LedgerConflictError(first, result.conflict);
  }

  async leafHashes(start: number, end: number): Promise<Buffer[]> {
    return this.stmt.hashes.all(start, end);
  }

  async leafAtPosition(position: number): Promise<LedgerLeaf | undefined> {
    return toLeaf(this.stmt.atPosition.get(position));
  }

  async leafOfEvent(eventId: string): Promise<LedgerLeaf | undefined> {
    return toLeaf(this.stmt.ofEvent.get(eventId));
  }

  async addHead(head: SignedHead): Promise<void> {
    this.stmt.addHead.run(head.size, head.root, head.signed_at, head.key_id, head.signature);
  }

  async listHeads(options: { before?: number; limit: number }): Promise<StoredHead[]> {
    return this.stmt.heads
      .get(options.limit)
      .all(options.before ?? Number.MAX_SAFE_INTEGER)
      .map((row) => ({
        seq: row[0],
        head: { size: row[1], root: row[2], signed_at: row[3], key_id: row[4], signature: row[5] },
      }));
  }

  async countHeads(): Promise<number> {
    return this.stmt.countHeads.get()!;
  }

  async source(): Promise<EventStoreIdentity | null> {
    const row = this.stmt.source.get();
    return row ? { kind: row[0], id: row[1] } : null;
  }

  async stampSource(store: EventStoreIdentity): Promise<void> {
    this.stmt.stampSource.run(store.kind, store.id);
  }

  async clearLeaves(): Promise<void> {
    this.db
      .transaction(() => {
        this.db.exec('DELETE FROM ledger_leaves; DELETE FROM ledger_state;');
      })
      .immediate();
  }

  async close(): Promise<void> {
    await this.writerThread?.close();
    this.eventsReader?.close();
    this.db.close();
  }
}

function toLeaf(row: LeafRow | undefined): LedgerLeaf | undefined {
  return row && { index: row[0], position: row[1], eventId: row[2], hash: row[3] };
}
