import Database from './sqlite-driver';
import { join } from 'node:path';
import {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StreamAppend,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
} from '@app/application/ports';
import { AppendRequest, AppendWriter, GroupOutcome, openWriter } from './sqlite-append-writer.worker';
import { SqliteWorkerThread } from './sqlite-worker-thread';

/** One caller's appends (one stream, or several written together), waiting for the next batch. */
interface PendingGroup {
  appends: AppendRequest[];
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

/** A row of EVENT_COLUMNS in raw (array) mode: no object with eight named keys per event. */
type EventRow = [
  position: number,
  streamId: string,
  revision: number,
  eventId: string,
  type: string,
  schemaVersion: number,
  data: string,
  metadata: string,
];

const EVENT_COLUMNS = 'position, stream_id, revision, event_id, type, schema_version, data, metadata';

/**
 * Events per read of a subscription, and so per read-model transaction while catching up.
 * Measured over a million events (docs/benchmarks.md): 2,000 writes a tenth and 5,000 a quarter
 * less to the WAL at the same CPU, but they hold 45 and 65 MB more at the peak (budget: 300 MB).
 */
const SUBSCRIPTION_BATCH = 1000;

export interface SqliteEventStoreOptions {
  /**
   * How often a live subscription looks for events written by another process (ms; 10 by
   * default). Appends of this process wake it at once; those of another (an API replica writing
   * beside the projector on one DATA_DIR) are seen only by this look, and each write through a
   * replica waits for the projector to apply it: at 500 ms that wait was most of every replica
   * write. A look that finds nothing is one index seek of an empty range: 100 a second cost nothing.
   */
  pollIntervalMs?: number;
  /**
   * `worker` (default): appends are written by a worker thread, so the fsync of each commit never
   * blocks the event loop, and appends arriving meanwhile form the next batch. `inline`: written
   * on the calling thread (one-shot tools).
   */
  writer?: 'worker' | 'inline';
}

/** Writes batches in a worker thread, one batch in flight at a time. */
class WorkerWriter {
  private readonly thread: SqliteWorkerThread<AppendRequest[][], GroupOutcome[]>;

  constructor(file: string) {
    this.thread = new SqliteWorkerThread(
      join(__dirname, 'sqlite-append-writer.worker.js'),
      { eventStoreFile: file },
      'Event store write',
    );
  }

  write(groups: AppendRequest[][]): Promise<GroupOutcome[]> {
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
  async write(groups: AppendRequest[][]): Promise<GroupOutcome[]> {
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
  private readonly listeners = new Set<() => void>();
  private closed = false;
  private readonly pollIntervalMs: number;

  private readonly stmt: {
    readStream: Database.Statement<[string, number, number], EventRow>;
    readAll: Database.Statement<[number, number], EventRow>;
    head: Database.Statement<[], number | null>;
  };

  constructor(file: string, options: SqliteEventStoreOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? 10;
    // The writer creates the schema; it must exist before the reader prepares its statements.
    const schema = openWriter(file);
    schema.close();
    this.writer = options.writer === 'inline' ? new InlineWriter(file) : new WorkerWriter(file);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.stmt = {
      readStream: this.db
        .prepare<[string, number, number], EventRow>(
          `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
        )
        .raw(),
      readAll: this.db
        .prepare<[number, number], EventRow>(
          `SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
        )
        .raw(),
      head: this.db.prepare<[], number | null>('SELECT max(position) FROM events').pluck(),
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
    return new Promise((resolve, reject) => {
      this.pending.push({ appends, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // Let the appends of this turn of the event loop join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      let outcomes: GroupOutcome[];
      try {
        outcomes = await this.writer.write(batch.map((group) => group.appends));
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
      for (const listener of this.listeners) listener();
    }
    this.writing = false;
  }

  async readStream(
    streamId: string,
    options: { fromRevision?: number; maxCount?: number } = {},
  ): Promise<RecordedEvent[]> {
    return this.stmt.readStream
      .all(streamId, options.fromRevision ?? 0, options.maxCount ?? Number.MAX_SAFE_INTEGER)
      .map(toRecorded);
  }

  async readAll(options: { after: number; maxCount: number }): Promise<RecordedEvent[]> {
    return this.readAllSync(options.after, options.maxCount);
  }

  private readAllSync(after: number, maxCount: number): RecordedEvent[] {
    return this.stmt.readAll.all(after, maxCount).map(toRecorded);
  }

  async headPosition(): Promise<number> {
    return this.stmt.head.get() ?? 0;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    let stopped = false;
    let wake: (() => void) | null = null;
    const listener = () => wake?.();
    this.listeners.add(listener);

    const waitForMore = () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }).finally(() => {
        wake = null;
      });

    const run = async () => {
      let checkpoint = options.after;
      while (!stopped && !this.closed) {
        const events = this.readAllSync(checkpoint, SUBSCRIPTION_BATCH);
        if (events.length === 0) {
          await waitForMore();
          continue;
        }
        await options.onEvents(events);
        checkpoint = events[events.length - 1].position;
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
    await this.writer.close();
    this.db.close();
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row[3],
    type: row[4],
    schemaVersion: row[5],
    data: JSON.parse(row[6]),
    metadata: JSON.parse(row[7]),
    streamId: row[1],
    revision: row[2],
    position: row[0],
  };
}
