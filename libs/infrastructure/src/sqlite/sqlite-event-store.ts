import Database from 'better-sqlite3';
import {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
} from '@app/application/ports';

interface PendingAppend {
  streamId: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

interface EventRow {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  schema_version: number;
  data: string;
  metadata: string;
}

export interface SqliteEventStoreOptions {
  /** How often a live subscription looks for events written by another process (ms). */
  pollIntervalMs?: number;
}

/**
 * The embedded event store: one SQLite file in WAL mode with `synchronous=FULL`, so an append is
 * on disk before its promise resolves.
 *
 * Appends are group-committed: every append requested during one turn of the event loop is
 * written in a single transaction (one fsync). Each append is checked against its expected
 * revision before anything of it is written, so one failing append never takes its neighbours
 * down with it.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  private readonly listeners = new Set<() => void>();
  private closed = false;
  private readonly pollIntervalMs: number;

  private readonly stmt: {
    lastRevision: Database.Statement<[string], { revision: number | null }>;
    byEventId: Database.Statement<[string], { stream_id: string; revision: number; position: number }>;
    insert: Database.Statement;
    readStream: Database.Statement<[string, number, number], EventRow>;
    readAll: Database.Statement<[number, number], EventRow>;
    head: Database.Statement<[], { position: number | null }>;
  };

  constructor(file: string, options: SqliteEventStoreOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position       INTEGER PRIMARY KEY AUTOINCREMENT,
        stream_id      TEXT    NOT NULL,
        revision       INTEGER NOT NULL,
        event_id       TEXT    NOT NULL UNIQUE,
        type           TEXT    NOT NULL,
        schema_version INTEGER NOT NULL,
        data           TEXT    NOT NULL,
        metadata       TEXT    NOT NULL,
        UNIQUE (stream_id, revision)
      );
    `);
    this.stmt = {
      lastRevision: this.db.prepare('SELECT max(revision) AS revision FROM events WHERE stream_id = ?'),
      byEventId: this.db.prepare('SELECT stream_id, revision, position FROM events WHERE event_id = ?'),
      insert: this.db.prepare(
        `INSERT INTO events (stream_id, revision, event_id, type, schema_version, data, metadata)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      readStream: this.db.prepare(
        'SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
      ),
      readAll: this.db.prepare('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      head: this.db.prepare('SELECT max(position) AS position FROM events'),
    };
  }

  appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('Event store is closed'));
    return new Promise((resolve, reject) => {
      this.pending.push({ streamId, events, expectedRevision: options.expectedRevision, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.flushScheduled = false;
    const outcomes: ({ ok: AppendResult } | { error: unknown })[] = [];
    try {
      this.db.transaction(() => {
        for (const append of batch) {
          try {
            outcomes.push({ ok: this.appendInTransaction(append) });
          } catch (error) {
            if (!(error instanceof WrongExpectedRevisionError)) throw error;
            outcomes.push({ error });
          }
        }
      }).immediate();
    } catch (error) {
      // The transaction rolled back: nothing of this batch was written.
      for (const append of batch) append.reject(error);
      return;
    }
    batch.forEach((append, i) => {
      const outcome = outcomes[i];
      if ('ok' in outcome) append.resolve(outcome.ok);
      else append.reject(outcome.error);
    });
    for (const listener of this.listeners) listener();
  }

  /** Checks everything first, then writes: a rejected append leaves no trace. */
  private appendInTransaction({ streamId, events, expectedRevision }: PendingAppend): AppendResult {
    const last = this.stmt.lastRevision.get(streamId)?.revision ?? null;
    const current: number | 'no_stream' = last === null ? 'no_stream' : last;

    const replay = this.idempotentReplay(streamId, events, expectedRevision, current);
    if (replay) return replay;

    const matches =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' && current === 'no_stream') ||
      (typeof expectedRevision === 'number' && current === expectedRevision);
    if (!matches) throw new WrongExpectedRevisionError(streamId, expectedRevision, current);
    if (events.length === 0) {
      const head = this.stmt.head.get()?.position ?? 0;
      return { nextRevision: last ?? -1, position: head };
    }

    let revision = last ?? -1;
    let position = 0;
    for (const event of events) {
      revision += 1;
      const info = this.stmt.insert.run(
        streamId,
        revision,
        event.id,
        event.type,
        event.schemaVersion,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
      );
      position = Number(info.lastInsertRowid);
    }
    return { nextRevision: revision, position };
  }

  /**
   * A retried append whose events are already in this stream succeeds without writing again
   * (as EventStoreDB does for the same ids at the same expected revision).
   */
  private idempotentReplay(
    streamId: string,
    events: NewEvent[],
    expectedRevision: ExpectedRevision,
    current: number | 'no_stream',
  ): AppendResult | null {
    if (events.length === 0) return null;
    const found = events.map((e) => this.stmt.byEventId.get(e.id));
    if (found.every((f) => f === undefined)) return null;
    const first = found[0];
    const contiguous =
      first !== undefined &&
      found.every((f, i) => f !== undefined && f.stream_id === streamId && f.revision === first.revision + i);
    const sameStart =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' && first?.revision === 0) ||
      (typeof expectedRevision === 'number' && first?.revision === expectedRevision + 1);
    if (!contiguous || !sameStart) throw new WrongExpectedRevisionError(streamId, expectedRevision, current);
    const lastFound = found[found.length - 1]!;
    return { nextRevision: lastFound.revision, position: lastFound.position };
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
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
    return this.stmt.head.get()?.position ?? 0;
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
        const events = this.readAllSync(checkpoint, 1000);
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
    if (this.pending.length > 0) this.flush();
    this.closed = true;
    for (const listener of this.listeners) listener();
    this.listeners.clear();
    this.db.close();
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    schemaVersion: row.schema_version,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    streamId: row.stream_id,
    revision: row.revision,
    position: row.position,
  };
}
