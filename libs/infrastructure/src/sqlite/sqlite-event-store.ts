import Database from './sqlite-driver';
import { FSWatcher, watch } from 'node:fs';
import { join } from 'node:path';
import {
  AppendResult,
  EventMetadata,
  EventStore,
  EventStoreIdentity,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StoredEventBytes,
  StreamAppend,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
} from '@app/application/ports';
import { AppendRequest, AppendWriter, BatchOutcome, EventRow, openWriter } from './sqlite-append-writer.worker';
import { StatementsByLimit } from './sqlite-limit';
import { SqliteWorkerThread } from './sqlite-worker-thread';

/** One caller's appends (one stream, or several written together), waiting for the next batch. */
interface PendingGroup {
  appends: AppendRequest[];
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

/** Rows of EVENT_COLUMNS are read in raw (array) mode (EventRow): no object with eight named keys per event. */
const EVENT_COLUMNS = 'position, stream_id, revision, event_id, type, schema_version, data, metadata';
/** An event row with its data and metadata as stored bytes (readAllStored). */
type StoredRow = [...head: [number, string, number, string, string, number], data: Buffer, metadata: Buffer];

/**
 * Events per read of a subscription, and so per read-model transaction while catching up.
 * Measured over a million events (docs/performance.md): 2,000 writes a tenth and 5,000 a quarter
 * less to the WAL at the same CPU, but they hold 45 and 65 MB more at the peak (budget: 300 MB).
 */
export const SUBSCRIPTION_BATCH = 1000;

export interface SqliteEventStoreOptions {
  /**
   * How often a live subscription looks for events written by another process (ms; 10 by
   * default). Appends of this process wake it at once; those of another (an API replica writing
   * beside the projector on one DATA_DIR) are seen only by this look, and each write through a
   * replica waits for the projector to apply it: at 500 ms that wait was most of every replica
   * write. This is the wait while events keep coming; idle, see `maxIdlePollIntervalMs`.
   */
  pollIntervalMs?: number;
  /**
   * How long an idle subscription may wait between looks when the store's write-ahead log is
   * watched (ms; 200 by default): each look that finds nothing doubles the wait from
   * `pollIntervalMs` up to this. The watch (inotify) wakes it as soon as another process writes to
   * the log, so the wait only bounds how late an append is seen if a notification is lost. Without
   * a watch (a file system that does not support one) the wait stays `pollIntervalMs`.
   */
  maxIdlePollIntervalMs?: number;
  /**
   * `worker` (default): appends are written by a worker thread, so the fsync of each commit never
   * blocks the event loop, and appends arriving meanwhile form the next batch. `inline`: written
   * on the calling thread (one-shot tools).
   */
  writer?: 'worker' | 'inline';
}

/** Writes batches in a worker thread, one batch in flight at a time. */
class WorkerWriter {
  private readonly thread: SqliteWorkerThread<AppendRequest[][], BatchOutcome>;

  constructor(file: string) {
    this.thread = new SqliteWorkerThread(
      join(__dirname, 'sqlite-append-writer.worker.js'),
      { eventStoreFile: file },
      'Event store write',
    );
  }

  write(groups: AppendRequest[][]): Promise<BatchOutcome> {
    return this.thread.call(groups);
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}

class InlineWriter {
  private readonly writer: AppendWriter;
  constructor(file: string) {
    this.writer = openWriter(file);
  }
  async write(groups: AppendRequest[][]): Promise<BatchOutcome> {
    return this.writer.write(groups);
  }
  async close(): Promise<void> {
    this.writer.close();
  }
}

/**
 * The embedded event store: one SQLite file in WAL mode with `synchronous=FULL`, so an append is
 * on disk before its promise resolves.
 *
 * Appends are group-committed: while one batch is being written, every append requested meanwhile
 * waits, and they are all written together in the next transaction (one fsync). The writes happen
 * in a worker thread by default, so the API keeps serving during the fsync and batches grow with
 * the load. Reads use their own connection on the calling thread (WAL lets readers and the writer
 * proceed together).
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly writer: WorkerWriter | InlineWriter;
  private pending: PendingGroup[] = [];
  /** One SQLite transaction writes every stream of a multi-stream append. */
  readonly atomicMultiStream = true;
  private writing = false;
  /**
   * Each live subscription's: called with the events of every batch this process writes (none on
   * close). One array of events for all of them: each event is parsed once, whoever reads it.
   */
  private readonly listeners = new Set<(events?: RecordedEvent[]) => void>();
  private closed = false;
  private readonly pollIntervalMs: number;
  private readonly maxIdlePollIntervalMs: number;
  /** Notices another process's writes to the file (null: none could be set up, or it failed). */
  private watcher: FSWatcher | null = null;
  /** The subscriptions waiting longer than `pollIntervalMs` for more: a change to the file wakes them. */
  private readonly idle = new Set<() => void>();

  private readonly stmt: {
    readStream: StatementsByLimit<Database.Statement<[string, number], EventRow>>;
    readAll: StatementsByLimit<Database.Statement<[number], EventRow>>;
    readAllStored: StatementsByLimit<Database.Statement<[number], StoredRow>>;
    head: Database.Statement<[], number | null>;
    at: Database.Statement<[number], EventRow>;
    storeId: Database.Statement<[], string>;
  };

  constructor(file: string, options: SqliteEventStoreOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? 10;
    this.maxIdlePollIntervalMs = Math.max(this.pollIntervalMs, options.maxIdlePollIntervalMs ?? 200);
    // The writer creates the schema; it must exist before the reader prepares its statements.
    const schema = openWriter(file);
    schema.close();
    this.writer = options.writer === 'inline' ? new InlineWriter(file) : new WorkerWriter(file);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    // A page cache of 2 MB, not the driver's 16: what this connection reads is mostly read once
    // (catch-up, rebuilds, a stream loaded into the state cache), and a rebuild's scan left 16 MB
    // of pages that were never read again (measured: 15 MB of resident memory after a rebuild).
    this.db.pragma('cache_size = -2000');
    this.watchFile(file);
    this.stmt = {
      readStream: new StatementsByLimit((limit) =>
        this.db
          .prepare<[string, number], EventRow>(
            `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ${limit}`,
          )
          .raw(),
      ),
      readAll: new StatementsByLimit((limit) =>
        this.db
          .prepare<[number], EventRow>(
            `SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position ${limit}`,
          )
          .raw(),
      ),
      // The data and metadata as the bytes the file holds (a text cast to a BLOB keeps its bytes):
      // no string made and encoded again per event.
      readAllStored: new StatementsByLimit((limit) =>
        this.db
          .prepare<[number], StoredRow>(
            `SELECT position, stream_id, revision, event_id, type, schema_version, CAST(data AS BLOB), CAST(metadata AS BLOB)
             FROM events WHERE position > ? ORDER BY position ${limit}`,
          )
          .raw(),
      ),
      head: this.db.prepare<[], number | null>('SELECT max(position) FROM events').pluck(),
      at: this.db.prepare<[number], EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position = ?`).raw(),
      storeId: this.db.prepare<[], string>('SELECT id FROM store').pluck(),
    };
  }

  async appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const [result] = await this.appendToStreams([{ streamId, events, expectedRevision: options.expectedRevision }]);
    return result;
  }

  appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (this.closed) return Promise.reject(new Error('Event store is closed'));
    if (appends.length === 0) return Promise.resolve([]);
    // As JSON text now, as they are asked for: what the writer thread is handed is strings
    // (cloned as bytes, not walked field by field), and what this process's subscriptions read
    // back is the same text. Data JSON cannot hold fails this append alone, not its batch.
    let texts: AppendRequest[];
    try {
      texts = appends.map(toAppendRequest);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ appends: texts, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // The appends requested by the code running now join the first batch; the repository has
        // already gathered a poll's commands into one append. Waiting for the next turn of the
        // event loop (setImmediate) would hold every append back behind a whole poll of requests
        // (docs/performance.md, "Decisions that hold").
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      let outcomes: BatchOutcome['outcomes'];
      let written: number[];
      try {
        ({ outcomes, written } = await this.writer.write(batch.map((group) => group.appends)));
      } catch (error) {
        // The transaction rolled back: nothing of this batch was written.
        for (const group of batch) group.reject(error);
        continue;
      }
      batch.forEach((group, i) => {
        const outcome = outcomes[i];
        if ('ok' in outcome) group.resolve(outcome.ok);
        else
          group.reject(
            new WrongExpectedRevisionError(
              outcome.conflict.streamId,
              outcome.conflict.expected,
              outcome.conflict.actual,
            ),
          );
      });
      if (this.listeners.size > 0 && written.length > 0) {
        // Parsed once for every subscription (the projections and the webhook fan-out read the
        // same events): the objects are shared, and no subscriber changes an event it is given.
        const events = recordedOf(batch, written);
        for (const listener of this.listeners) listener(events);
      }
    }
    this.writing = false;
  }

  async readStream(
    streamId: string,
    options: { fromRevision?: number; maxCount?: number } = {},
  ): Promise<RecordedEvent[]> {
    return this.stmt.readStream
      .get(options.maxCount ?? Number.MAX_SAFE_INTEGER)
      .all(streamId, options.fromRevision ?? 0)
      .map(toRecorded);
  }

  /** The rows' data and metadata columns as their UTF-8 bytes: the text the writer stored. */
  async readAllStored(options: { after: number; maxCount: number }): Promise<StoredEventBytes[]> {
    if (options.maxCount <= 0) return [];
    return this.stmt.readAllStored
      .get(options.maxCount)
      .all(options.after)
      .map((row) => ({
        position: row[0],
        streamId: row[1],
        revision: row[2],
        id: row[3],
        type: row[4],
        schemaVersion: row[5],
        data: row[6],
        metadata: row[7],
      }));
  }

  async readAll(options: { after: number; maxCount: number }): Promise<RecordedEvent[]> {
    return this.readAllSync(options.after, options.maxCount);
  }

  async readAt(position: number): Promise<RecordedEvent | undefined> {
    const row = this.stmt.at.get(position);
    return row && toRecorded(row);
  }

  private readAllSync(after: number, maxCount: number): RecordedEvent[] {
    return this.stmt.readAll.get(maxCount).all(after).map(toRecorded);
  }

  async headPosition(): Promise<number> {
    return this.stmt.head.get() ?? 0;
  }

  /** The id made with the file (the writer's schema): a copy of the file is the same store. */
  async identity(): Promise<EventStoreIdentity> {
    return { kind: 'sqlite', id: this.stmt.storeId.get()! };
  }

  /**
   * Watches the store's write-ahead log, where every commit of any process lands first. A write
   * of this process wakes an idle subscription too (harmlessly: it looks and finds its rows); a
   * write of another process is what the watch is for. The log exists while a connection is open
   * (this store's reader keeps one) and is rewritten in place, never replaced. If the watch cannot
   * be set up, or fails later, subscriptions look every `pollIntervalMs` as before. (The folder
   * was watched at first: the read models' and webhooks' files in it made three times the
   * notifications under load, about 3,000 a second.)
   */
  private watchFile(file: string) {
    if (file === ':memory:' || file === '') return;
    try {
      this.watcher = watch(`${file}-wal`, { persistent: false }, () => {
        if (this.idle.size > 0) this.wakeIdle();
      });
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = null;
        this.wakeIdle();
      });
    } catch {
      this.watcher = null;
    }
  }

  private wakeIdle() {
    // Each wake takes itself out of the set as it runs (a Set's iteration allows it).
    for (const wake of this.idle) wake();
  }

  /**
   * Live subscriptions are woken by this process's appends and get their events as written: the
   * next events are taken from them, without reading the store again, whenever they continue
   * right after the checkpoint (no gap, so nothing another process wrote can be in between).
   * Otherwise (another process's appends, found by the poll; a subscription that is behind) they
   * are read from the store. A subscription that falls behind drops what it held and reads.
   */
  subscribeToAll(options: SubscribeOptions): Subscription {
    let stopped = false;
    let wake: (() => void) | null = null;
    const local = new LocalEvents();
    const listener = (events?: RecordedEvent[]) => {
      if (events) local.add(events);
      wake?.();
    };
    this.listeners.add(listener);

    /**
     * Resolves with whether it waited the whole time (false: woken). Settled in one step, without
     * a `finally`: under load an append's answer comes with a batch of responses to send, and
     * each extra promise step of the wake queued behind all of their steps (measured: the loop
     * resumed 0.2-1 ms after its wake; now within 20 us).
     */
    const waitForMore = (ms: number) =>
      new Promise<boolean>((resolve) => {
        const settle = (waitedOut: boolean) => {
          if (wake) this.idle.delete(wake);
          wake = null;
          resolve(waitedOut);
        };
        const timer = setTimeout(() => settle(true), ms);
        wake = () => {
          clearTimeout(timer);
          settle(false);
        };
        if (ms > this.pollIntervalMs) this.idle.add(wake);
      });

    const run = async () => {
      let checkpoint = options.after;
      // Idle, the looks for other processes' appends thin out (the watch wakes it at once); the
      // first rows found bring them back to every `pollIntervalMs`. Measured idle: the two
      // subscriptions' 200 looks a second were 2.5% of a core.
      let wait = this.pollIntervalMs;
      while (!stopped && !this.closed) {
        const events =
          local.after(checkpoint) ?? this.stmt.readAll.get(SUBSCRIPTION_BATCH).all(checkpoint).map(toRecorded);
        if (events.length === 0) {
          const waitedOut = await waitForMore(wait);
          // Woken by a write to the file, it may have looked before that write's commit was
          // visible (the notification comes with the write, the commit just after): it looks
          // again soon, and thins out from there.
          wait = this.watcher && waitedOut ? Math.min(wait * 2, this.maxIdlePollIntervalMs) : this.pollIntervalMs;
          continue;
        }
        wait = this.pollIntervalMs;
        const last = lastPosition(events);
        await options.onEvents(events);
        checkpoint = last;
      }
    };
    const running = run().catch((error) => {
      if (!stopped) options.onError?.(error);
    });

    return {
      stop: async () => {
        stopped = true;
        this.listeners.delete(listener);
        wake?.();
        await running;
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Appends already accepted are written before the writer goes away.
    while (this.writing || this.pending.length > 0) await new Promise((r) => setTimeout(r, 1));
    for (const listener of this.listeners) listener();
    this.listeners.clear();
    this.watcher?.close();
    this.watcher = null;
    await this.writer.close();
    this.db.close();
  }
}

/**
 * The events of this process's appends not yet taken by one subscription, batch by batch (each
 * batch one transaction: consecutive positions). At most a few subscription batches are held.
 */
class LocalEvents {
  private batches: RecordedEvent[][] = [];
  private held = 0;

  add(events: RecordedEvent[]) {
    if (this.held + events.length > 4 * SUBSCRIPTION_BATCH) {
      // Behind by that much, the subscription reads the store: what it held is of no use.
      this.batches = [];
      this.held = 0;
      return;
    }
    this.batches.push(events);
    this.held += events.length;
  }

  /** The events right after `checkpoint`, up to a subscription batch; null if they do not start there. */
  after(checkpoint: number): RecordedEvent[] | null {
    while (this.batches.length > 0 && lastPosition(this.batches[0]) <= checkpoint) this.drop();
    if (this.batches.length === 0 || this.batches[0][0].position !== checkpoint + 1) return null;
    // The batches are shared by every subscription of the store: copied or joined into a new
    // array, never handed on or changed themselves.
    let events = this.drop().slice();
    while (
      this.batches.length > 0 &&
      this.batches[0][0].position === lastPosition(events) + 1 &&
      events.length + this.batches[0].length <= SUBSCRIPTION_BATCH
    )
      events = events.concat(this.drop());
    return events;
  }

  private drop(): RecordedEvent[] {
    const events = this.batches.shift()!;
    this.held -= events.length;
    return events;
  }
}

const lastPosition = (events: RecordedEvent[]) => events[events.length - 1].position;

function toAppendRequest({ streamId, events, expectedRevision }: StreamAppend): AppendRequest {
  return {
    streamId,
    expectedRevision,
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      schemaVersion: e.schemaVersion,
      data: JSON.stringify(e.data),
      metadata: JSON.stringify(e.metadata),
    })),
  };
}

/** The events a batch wrote, as read back from the store, from the appends and the writer's `written`. */
function recordedOf(batch: PendingGroup[], written: number[]): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  for (let i = 0; i < written.length;) {
    const append = batch[written[i]].appends[written[i + 1]];
    const firstRevision = written[i + 2];
    const count = written[i + 3];
    i += 4;
    for (let k = 0; k < count; k++, i++) {
      const e = append.events[k];
      events.push(
        toRecorded([written[i], append.streamId, firstRevision + k, e.id, e.type, e.schemaVersion, e.data, e.metadata]),
      );
    }
  }
  return events;
}

function toRecorded(row: EventRow): RecordedEvent {
  return new StoredEvent(row);
}

/**
 * A recorded event read from its row. Its `metadata` is parsed when first read: a rebuild of a
 * projection that never reads it (most of them) skips half the parsing, which is what bounds a
 * rebuild's reading. It is still an own enumerable property (an accessor shared by every
 * instance), so spreading, JSON, structured cloning and deep equality see it like any other
 * field; the text waits in a private field, which none of them see.
 */
class StoredEvent implements RecordedEvent {
  static readonly #lazyMetadata: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: StoredEvent) {
      return (this.#metadata ??= JSON.parse(this.#metadataText) as EventMetadata);
    },
    set(this: StoredEvent, value: EventMetadata) {
      this.#metadata = value;
    },
  };

  // Declared, not defined: the constructor makes them in the order of the port's other events.
  declare readonly id: string;
  declare readonly type: string;
  declare readonly schemaVersion: number;
  declare readonly data: unknown;
  declare readonly metadata: EventMetadata;
  declare readonly streamId: string;
  declare readonly revision: number;
  declare readonly position: number;
  readonly #metadataText: string;
  #metadata: EventMetadata | undefined;

  constructor(row: EventRow) {
    this.id = row[3];
    this.type = row[4];
    this.schemaVersion = row[5];
    this.data = JSON.parse(row[6]);
    this.#metadataText = row[7];
    Object.defineProperty(this, 'metadata', StoredEvent.#lazyMetadata);
    this.streamId = row[1];
    this.revision = row[2];
    this.position = row[0];
  }
}
