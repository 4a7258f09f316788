import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import {
  ANY,
  AllStreamResolvedEvent,
  AllStreamSubscription,
  AppendExpectedRevision,
  AppendResult,
  AppendToStreamOptions,
  BACKWARDS,
  END,
  ErrorType,
  EventData,
  EventStoreDBClient,
  NO_STREAM,
  Position,
  ReadAllOptions,
  ReadPosition,
  ReadStreamOptions,
  ResolvedEvent,
  START,
  STREAM_EXISTS,
  SubscribeToAllOptions,
} from '@eventstore/db-client';

/** One record of the stand-in's transaction log: an event of one stream at its own log position. */
export interface LogRecord {
  streamId: string;
  revision: bigint;
  id: string;
  type: string;
  data: unknown;
  metadata: unknown;
  position: Position;
}

/** What the driver's `appendToStream` was given, call by call. */
export interface AppendCall {
  streamName: string;
  events: EventData[];
  expectedRevision: AppendExpectedRevision | undefined;
}

/** A subscription the stand-in handed out, typed as the driver types its own. */
export type FakeSubscription = AllStreamSubscription & PassThrough & { unsubscribeCalls: number };

/** The server's answer to a read of `$all` from a position that is not where a record starts. */
export class InvalidPositionError extends Error {
  constructor(readonly position: ReadPosition) {
    super(`Invalid position: ${shown(position)} is not where a record of the transaction log starts`);
  }
}

/**
 * A stand-in for an EventStoreDB server behind the driver's client, as far as the adapter uses it,
 * with the server's rules that matter to the adapter:
 *
 * - positions are log offsets: each record starts where the previous one ended (its size in bytes
 *   past it), commit = prepare for every event of an implicit transaction (what gRPC appends are);
 * - a read of `$all` (or a subscription) must start at START, END, the end of the log, or a
 *   record's own position; anything else is refused, as the server answers `InvalidPosition`;
 * - a forward read of `$all` includes the record at its starting position, a subscription does not;
 * - the log begins with the server's own records (`$`-streams);
 * - appends check the expected revision (and are idempotent for the same ids at the same place),
 *   unknown streams are StreamNotFound on reads.
 *
 * Cast to `EventStoreDBClient` with `asClient()`; what the adapter was given is kept (`appends`,
 * `subscriptions`, `readAllFrom`).
 */
export class InMemoryEsdbClient {
  readonly log: LogRecord[] = [];
  readonly appends: AppendCall[] = [];
  readonly subscriptions: FakeSubscription[] = [];
  /** Every `fromPosition` a read of `$all` was asked for. */
  readonly readAllFrom: ReadPosition[] = [];
  private end = 0n;
  private readonly live = new Set<FakeSubscription>();

  constructor() {
    this.record('$epoch-information', '$epoch-information', { epoch: 0 }, null);
    this.record('$scavenges', '$scavengeIndexInitialized', {}, null);
  }

  asClient(): EventStoreDBClient {
    return this as unknown as EventStoreDBClient;
  }

  async appendToStream(
    streamName: string,
    events: EventData | EventData[],
    options: AppendToStreamOptions = {},
  ): Promise<AppendResult> {
    const list = Array.isArray(events) ? events : [events];
    this.appends.push({ streamName, events: list, expectedRevision: options.expectedRevision });
    const stream = this.stream(streamName);
    const current = stream.length > 0 ? stream[stream.length - 1].revision : undefined;
    const expected = options.expectedRevision ?? ANY;
    const replayed = this.replay(stream, list, expected);
    if (replayed) return replayed;
    const matches =
      expected === ANY ||
      (expected === NO_STREAM && current === undefined) ||
      (expected === STREAM_EXISTS && current !== undefined) ||
      (typeof expected === 'bigint' && current === expected);
    if (!matches) {
      throw Object.assign(new Error(`Wrong expected version on ${streamName}`), {
        type: ErrorType.WRONG_EXPECTED_VERSION,
        streamName,
        expectedVersion: expected,
        actualVersion: current ?? NO_STREAM,
      });
    }
    let last: LogRecord | undefined;
    for (const event of list) last = this.record(streamName, event.type, event.data, event.metadata, event.id);
    return { success: true, nextExpectedRevision: last!.revision, position: last!.position };
  }

  readStream(streamName: string, options: ReadStreamOptions = {}): AsyncIterable<ResolvedEvent> {
    const stream = this.stream(streamName);
    const backwards = options.direction === BACKWARDS;
    const from = options.fromRevision ?? (backwards ? END : START);
    let records = backwards ? [...stream].reverse() : stream;
    if (typeof from === 'bigint')
      records = records.filter((r) => (backwards ? r.revision <= from : r.revision >= from));
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const picked = records.slice(0, max).map((r) => resolved(r));
    return (async function* () {
      if (stream.length === 0) {
        throw Object.assign(new Error(`${streamName} not found`), { type: ErrorType.STREAM_NOT_FOUND, streamName });
      }
      yield* picked;
    })();
  }

  readAll(options: ReadAllOptions = {}): AsyncIterable<AllStreamResolvedEvent> {
    const from = options.fromPosition ?? START;
    this.readAllFrom.push(from);
    const backwards = options.direction === BACKWARDS;
    const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const valid = this.isValid(from);
    const start = valid ? this.indexOf(from) : 0;
    const records = backwards
      ? this.log.slice(0, from === START ? 0 : start).reverse()
      : this.log.slice(from === END ? this.log.length : start);
    const picked = records.slice(0, max).map((r) => resolved(r) as AllStreamResolvedEvent);
    return (async function* () {
      if (!valid) throw new InvalidPositionError(from);
      yield* picked;
    })();
  }

  subscribeToAll(
    options: SubscribeToAllOptions = {},
    readableOptions: { highWaterMark?: number } = {},
  ): AllStreamSubscription {
    const stream = Object.assign(new PassThrough({ objectMode: true, highWaterMark: readableOptions.highWaterMark }), {
      unsubscribeCalls: 0,
      unsubscribe: async () => {
        stream.unsubscribeCalls++;
        this.live.delete(stream);
        if (!stream.writableEnded) stream.end();
      },
    }) as unknown as FakeSubscription;
    this.subscriptions.push(stream);
    const from = options.fromPosition ?? START;
    if (!this.isValid(from)) {
      // The driver reports what the server refused as an 'error' of the subscription.
      setImmediate(() => stream.destroy(new InvalidPositionError(from)));
      return stream;
    }
    const after = from === START ? 0 : from === END ? this.log.length : this.indexOf(from) + 1;
    for (const record of this.log.slice(after)) stream.write(resolved(record));
    this.live.add(stream);
    return stream;
  }

  async dispose(): Promise<void> {
    for (const stream of this.live) stream.end();
    this.live.clear();
  }

  /** A record written by someone else (another client, the server itself). */
  record(streamId: string, type: string, data: unknown, metadata: unknown, id: string = randomUUID()) {
    const stream = this.stream(streamId);
    const position = { commit: this.end, prepare: this.end };
    const record: LogRecord = { streamId, revision: BigInt(stream.length), id, type, data, metadata, position };
    this.log.push(record);
    // A record takes its header and its payload: positions are far apart and never dense.
    this.end += BigInt(120 + JSON.stringify({ type, data, metadata }).length + streamId.length);
    for (const live of this.live) if (!live.destroyed) live.write(resolved(record));
    return record;
  }

  private stream(streamId: string): LogRecord[] {
    return this.log.filter((r) => r.streamId === streamId);
  }

  private replay(stream: LogRecord[], events: EventData[], expected: AppendExpectedRevision): AppendResult | null {
    const found = events.map((e) => stream.find((r) => r.id === e.id));
    if (events.length === 0 || found.some((f) => f === undefined)) return null;
    const first = found[0]!.revision;
    const fits =
      expected === ANY ||
      (expected === NO_STREAM && first === 0n) ||
      (typeof expected === 'bigint' && first === expected + 1n);
    if (!fits) return null;
    const last = found[found.length - 1]!;
    return { success: true, nextExpectedRevision: last.revision, position: last.position };
  }

  private isValid(from: ReadPosition): boolean {
    if (from === START || from === END) return true;
    if (from.commit === this.end && from.prepare === this.end) return true;
    return this.indexOf(from) >= 0;
  }

  private indexOf(from: ReadPosition): number {
    if (from === START) return 0;
    if (from === END) return this.log.length;
    if (from.commit === this.end) return this.log.length;
    return this.log.findIndex((r) => r.position.commit === from.commit && r.position.prepare === from.prepare);
  }
}

function resolved(record: LogRecord): ResolvedEvent & AllStreamResolvedEvent {
  return {
    event: {
      streamId: record.streamId,
      id: record.id,
      revision: record.revision,
      type: record.type,
      data: record.data as never,
      metadata: record.metadata as never,
      isJson: true,
      created: new Date(0),
      position: record.position,
    },
    commitPosition: record.position.commit,
  } as ResolvedEvent & AllStreamResolvedEvent;
}

function shown(position: ReadPosition): string {
  if (position === START) return 'START';
  if (position === END) return 'END';
  return `commit ${position.commit}, prepare ${position.prepare}`;
}
