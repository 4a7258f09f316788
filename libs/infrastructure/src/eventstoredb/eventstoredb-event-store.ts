import { randomUUID } from 'node:crypto';
import {
  ANY,
  AllStreamResolvedEvent,
  AllStreamSubscription,
  AppendExpectedRevision,
  BACKWARDS,
  END,
  ErrorType,
  EventData,
  EventStoreDBClient,
  FORWARDS,
  JSONType,
  NO_STREAM,
  Position,
  ReadPosition,
  ResolvedEvent,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@eventstore/db-client';
import {
  AppendResult,
  EventMetadata,
  EventStore,
  EventStoreIdentity,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StoredEventBytes,
  START,
  SubscribeOptions,
  Subscription,
  StreamAppend,
  WrongExpectedRevisionError,
} from '@app/application/ports';
import {
  STORE_IDENTITY_STREAM,
  STORE_IDENTITY_TYPE,
  fromStoreStreamName,
  legacyStreamName,
  toStoreStreamName,
} from './stream-names';

export interface EventStoreDbEventStoreOptions {
  /** Most events handed to one `onEvents` call of a subscription (and buffered client-side). */
  maxBatchSize?: number;
  /** Events requested per page when scanning `$all` in `readAll` / `headPosition`. */
  pageSize?: number;
}

/**
 * What the adapter writes into an event's metadata JSON: the port's metadata and the schema
 * version, with correlation and causation under EventStoreDB's own keys (`$correlationId`,
 * `$causationId`), the ones its `$by_correlation_id` projection and its UI read. `$causationId` is
 * left out when nothing caused the event.
 */
type StoredMetadata = Omit<EventMetadata, 'correlationId' | 'causationId'> & {
  $correlationId: string;
  $causationId?: string;
  schemaVersion: number;
};

type AnyResolvedEvent = ResolvedEvent | AllStreamResolvedEvent;
type AnyRecordedEvent = NonNullable<AnyResolvedEvent['event']>;

/**
 * The event store port on EventStoreDB / KurrentDB (gRPC client `@eventstore/db-client` v6).
 *
 * Mapping:
 * - one port stream = one ESDB stream, named the store's way (stream-names.ts: one `$ce-`
 *   category per kind); revisions are ESDB stream revisions (bigint → number);
 * - an event's port `id` is its ESDB event id (so it must be a UUID), which is what makes an
 *   append retried with the same ids and expected revision idempotent on the server;
 * - `schemaVersion` and the port's `EventMetadata` travel together in the event's metadata JSON;
 * - **positions are ESDB commit positions: byte offsets in the transaction log.** They grow
 *   with every event but are not dense (gaps of hundreds of bytes, system events in between),
 *   so never do arithmetic on them. Every event written through the gRPC API (v20+) has its
 *   own commit position equal to its prepare position, which is why a single number is enough
 *   to resume from. Positions fit a JS number up to 2^53 bytes (8 PiB) of log.
 *
 * `$all` as the port sees it excludes EventStoreDB's own records: events whose type starts
 * with `$` (system events, links `$>`, stream metadata `$metadata`) and events of streams
 * whose name starts with `$`.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly maxBatchSize: number;
  private readonly pageSize: number;
  private readonly subscriptions = new Set<Subscription>();
  private storeId: Promise<string> | undefined;
  private closed = false;

  constructor(
    private readonly client: EventStoreDBClient,
    options: EventStoreDbEventStoreOptions = {},
  ) {
    this.maxBatchSize = options.maxBatchSize ?? 500;
    this.pageSize = options.pageSize ?? 500;
  }

  /**
   * `url` is an ESDB connection string, e.g. `esdb://localhost:2113?tls=false`. The client
   * connects lazily: a bad address surfaces on the first call, not here.
   */
  static async connect(url: string, options: EventStoreDbEventStoreOptions = {}): Promise<EventStoreDbEventStore> {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(url), options);
  }

  async appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    this.assertOpen();
    const { expectedRevision } = options;
    const name = await this.streamToWrite(streamId, expectedRevision);
    const write = (to: string) =>
      events.length === 0
        ? this.checkOnly(streamId, to, expectedRevision)
        : this.appendTo(streamId, to, events, expectedRevision);
    try {
      return await write(name);
    } catch (error) {
      // At a revision, a stream of a renamed kind not found under its store name may be one
      // an earlier release wrote under the domain's name: it stays there (see stream-names.ts).
      const legacy = legacyStreamName(streamId);
      const notThere = error instanceof WrongExpectedRevisionError && error.actual === 'no_stream';
      if (legacy === null || legacy === name || !notThere) throw error;
      return write(legacy);
    }
  }

  /**
   * The store's name to write a stream under: its store name, unless it is of a renamed kind and
   * was created by an earlier release (then, at `no_stream` or `any`, it is looked for under the
   * domain's name: one read more per creation of such a stream; at a revision, the append tries
   * the store name first and the old one if that stream is not there).
   */
  private async streamToWrite(streamId: string, expectedRevision: ExpectedRevision): Promise<string> {
    const name = toStoreStreamName(streamId);
    if (name === null) {
      throw new RangeError(
        `Stream name ${streamId} is not the domain's: in EventStoreDB it would read back as another`,
      );
    }
    const legacy = legacyStreamName(streamId);
    if (legacy === null || typeof expectedRevision === 'number') return name;
    return (await this.lastEventOf(legacy)) ? legacy : name;
  }

  /** Appends to the store's stream `name`; errors name the domain's `streamId`. */
  private async appendTo(
    streamId: string,
    name: string,
    events: NewEvent[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    let result;
    try {
      result = await this.client.appendToStream(name, events.map(toEventData), {
        expectedRevision: toEsdbExpectedRevision(expectedRevision),
      });
    } catch (error) {
      if (isWrongExpectedVersion(error)) {
        throw new WrongExpectedRevisionError(streamId, expectedRevision, fromCurrentRevision(error.actualVersion));
      }
      throw error;
    }
    // Only reachable when the connection string sets throwOnAppendFailure=false.
    if (!result.success) {
      throw new WrongExpectedRevisionError(streamId, expectedRevision, await this.currentRevision(name));
    }

    const nextRevision = Number(result.nextExpectedRevision);
    // The server reports the log position of the write's last event (the record that ends
    // the implicit transaction); an idempotent re-append may come back without a position.
    const position =
      result.position !== undefined
        ? Number(result.position.commit)
        : await this.positionOfRevision(name, result.nextExpectedRevision);
    return { nextRevision, position };
  }

  /**
   * EventStoreDB 24.x has no multi-stream transaction (KurrentDB 25.1 adds one): the appends are
   * made one after the other, in the order given, and the first failure stops the rest. Callers
   * order them so that any written prefix is safe, and the slot reconciler finishes or undoes it.
   */
  readonly atomicMultiStream = false;

  async appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    const results: AppendResult[] = [];
    for (const { streamId, events, expectedRevision } of appends) {
      results.push(await this.appendToStream(streamId, events, { expectedRevision }));
    }
    return results;
  }

  async readStream(
    streamId: string,
    options: { fromRevision?: number; maxCount?: number } = {},
  ): Promise<RecordedEvent[]> {
    this.assertOpen();
    if (options.maxCount !== undefined && options.maxCount <= 0) return [];
    const name = toStoreStreamName(streamId);
    if (name === null) return [];
    const events = await this.readStoreStream(name, options);
    if (events !== null) return events;
    // A stream of a renamed kind that an earlier release wrote under the domain's name (stream-names.ts).
    const legacy = legacyStreamName(streamId);
    if (legacy === null || legacy === name) return [];
    return (await this.readStoreStream(legacy, options)) ?? [];
  }

  /** The events of the store's stream `name`, or null when it does not exist. */
  private async readStoreStream(
    name: string,
    options: { fromRevision?: number; maxCount?: number },
  ): Promise<RecordedEvent[] | null> {
    const out: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(name, {
        direction: FORWARDS,
        fromRevision: BigInt(options.fromRevision ?? 0),
        ...(options.maxCount !== undefined ? { maxCount: options.maxCount } : {}),
      });
      for await (const resolved of read) {
        const event = toRecorded(resolved);
        if (event) out.push(event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return null;
      throw error;
    }
    return out;
  }

  /**
   * ESDB reads `$all` forwards *inclusive* of the position given, and has no server-side
   * filter on this client's `readAll`; so this pages through the log, skips what is at or
   * before `after` and what is not the application's, until `maxCount` events are found or
   * the end of the log is reached.
   */
  async readAll(options: { after: number; maxCount: number }): Promise<RecordedEvent[]> {
    return this.readAllAs(options, toRecorded);
  }

  /**
   * The client parses JSON events and hands out no raw bytes, so the stored bytes are taken to be
   * `JSON.stringify` of what it parsed: the adapter wrote `JSON.stringify` of the same values, and
   * that round trip gives the same text (docs/ledger.md, "EventStoreDB"). Binary events as they are.
   */
  async readAllStored(options: { after: number; maxCount: number }): Promise<StoredEventBytes[]> {
    return this.readAllAs(options, toStoredBytes);
  }

  private async readAllAs<T>(
    options: { after: number; maxCount: number },
    map: (resolved: AnyResolvedEvent) => T | undefined,
  ): Promise<T[]> {
    this.assertOpen();
    const { after, maxCount } = options;
    if (maxCount <= 0) return [];
    const out: T[] = [];
    // One more than asked for (the event at `after` itself comes back first), within bounds.
    const pageSize = Math.max(2, Math.min(this.pageSize, Math.max(maxCount + 1, 32)));
    let from: ReadPosition = toReadPosition(after);
    let cursor: Position | undefined;
    for (;;) {
      const page = await collect(this.client.readAll({ direction: FORWARDS, fromPosition: from, maxCount: pageSize }));
      let progressed = false;
      for (const resolved of page) {
        const position = positionOf(resolved);
        if (position === undefined) continue;
        if (cursor !== undefined && comparePositions(position, cursor) <= 0) continue; // re-read of the page boundary
        cursor = position;
        progressed = true;
        if (!isApplicationEvent(resolved) || Number(position.commit) <= after) continue;
        const event = map(resolved);
        if (!event) continue;
        out.push(event);
        if (out.length >= maxCount) return out;
      }
      if (page.length < pageSize || !progressed || cursor === undefined) return out;
      from = cursor;
    }
  }

  /**
   * One forward read of `$all` from the event's own position, which ESDB includes. That position
   * is where the event's record starts (commit = prepare, see above), so the server accepts it;
   * `position - 1` lies inside the record before and is refused with `InvalidPosition`.
   */
  async readAt(position: number): Promise<RecordedEvent | undefined> {
    this.assertOpen();
    if (!Number.isSafeInteger(position) || position < START) return undefined;
    const [resolved] = await collect(
      this.client.readAll({ direction: FORWARDS, fromPosition: toReadPosition(position), maxCount: 1 }),
    );
    if (!resolved || !isApplicationEvent(resolved)) return undefined;
    const event = toRecorded(resolved);
    return event?.position === position ? event : undefined;
  }

  /** The commit position of the newest application event (see `readAll`), or START. */
  async headPosition(): Promise<number> {
    this.assertOpen();
    const pageSize = Math.max(2, Math.min(this.pageSize, 100));
    let from: ReadPosition = END;
    let cursor: Position | undefined;
    for (;;) {
      const page = await collect(this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: pageSize }));
      let progressed = false;
      for (const resolved of page) {
        const position = positionOf(resolved);
        if (position === undefined) continue;
        if (cursor !== undefined && comparePositions(position, cursor) >= 0) continue;
        cursor = position;
        progressed = true;
        if (isApplicationEvent(resolved)) return Number(position.commit);
      }
      if (page.length < pageSize || !progressed || cursor === undefined) return START;
      from = cursor;
    }
  }

  /**
   * The id kept in the stream `storeIdentity-workspaceOperations` (STORE_IDENTITY_STREAM): its
   * first event, written by the first process to ask (the others' appends at `no_stream` fail
   * and they read it). It is in the store, so it follows the store's data: a cluster that is
   * moved or renamed keeps it, a new or emptied one gets another. Not a `$` stream, which only
   * `$admins` may write by default (the service's user need not be one); the adapter keeps it out
   * of what it reads of `$all`.
   */
  async identity(): Promise<EventStoreIdentity> {
    this.assertOpen();
    this.storeId ??= this.readOrMakeStoreId().catch((error: unknown) => {
      this.storeId = undefined;
      throw error;
    });
    return { kind: 'eventstoredb', id: await this.storeId };
  }

  private async readOrMakeStoreId(): Promise<string> {
    const kept = await this.keptStoreId();
    if (kept) return kept;
    try {
      await this.client.appendToStream(
        STORE_IDENTITY_STREAM,
        jsonEvent({ type: STORE_IDENTITY_TYPE, data: { id: randomUUID() } }),
        { expectedRevision: NO_STREAM },
      );
    } catch (error) {
      if (!isWrongExpectedVersion(error)) throw error;
    }
    const made = await this.keptStoreId();
    if (!made) throw new Error(`No store id in ${STORE_IDENTITY_STREAM} after writing one`);
    return made;
  }

  private async keptStoreId(): Promise<string | undefined> {
    try {
      const [first] = await collect(
        this.client.readStream(STORE_IDENTITY_STREAM, { direction: FORWARDS, fromRevision: ESDB_START, maxCount: 1 }),
      );
      const id = (first?.event?.data as { id?: unknown } | undefined)?.id;
      return typeof id === 'string' ? id : undefined;
    } catch (error) {
      if (isStreamNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * A catch-up subscription to `$all` (ESDB: positions given to it are exclusive), filtered on
   * the server to non-system event types and on the client to non-`$` streams. Events already
   * buffered when one arrives are handed over with it as one batch; the next batch waits for
   * the handler's promise, and while it waits the client's stream buffer fills up to
   * `maxBatchSize` and then gRPC flow control holds the server back.
   */
  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    const stream: AllStreamSubscription = this.client.subscribeToAll(
      { fromPosition: toReadPosition(options.after), filter: excludeSystemEvents() },
      { highWaterMark: this.maxBatchSize },
    );
    // Errors reach the loop below through the iterator; this listener only keeps an error
    // emitted after the loop has finished from becoming an uncaught 'error' event.
    stream.on('error', () => undefined);

    let stopped = false;
    let checkpoint = options.after;
    const release = async () => {
      await stream.unsubscribe().catch(() => undefined);
      stream.destroy();
    };

    const run = async () => {
      const iterator = stream[Symbol.asyncIterator]();
      try {
        for (;;) {
          const first = await iterator.next();
          if (first.done || stopped) break;
          const received: AllStreamResolvedEvent[] = [first.value];
          while (received.length < this.maxBatchSize && stream.readableLength > 0) {
            const next = await iterator.next();
            if (next.done) break;
            received.push(next.value);
          }
          if (stopped) break;
          const batch: RecordedEvent[] = [];
          for (const resolved of received) {
            if (!isApplicationEvent(resolved)) continue;
            const event = toRecorded(resolved);
            if (event && event.position > checkpoint) batch.push(event);
          }
          if (batch.length === 0) continue;
          await options.onEvents(batch);
          checkpoint = batch[batch.length - 1].position;
        }
        if (!stopped) throw new Error('The EventStoreDB subscription to $all ended unexpectedly');
      } finally {
        await release();
      }
    };

    // However it ends (an error, the server ending the stream, a close, a stop), a subscription
    // whose loop has finished is dead: the adapter forgets it, or every resubscription after a
    // failure would leave one more behind for close() to stop.
    const running = run()
      .catch((error: unknown) => {
        if (!stopped) options.onError?.(error);
      })
      .finally(() => this.subscriptions.delete(subscription));
    const subscription: Subscription = {
      stop: async () => {
        if (!stopped) {
          stopped = true;
          this.subscriptions.delete(subscription);
          await release();
        }
        await running;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Event store is closed');
  }

  /** An append of no events to the store's stream `name`: only the expected revision is checked. */
  private async checkOnly(streamId: string, name: string, expectedRevision: ExpectedRevision): Promise<AppendResult> {
    const current = await this.currentRevision(name);
    const matches =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' && current === 'no_stream') ||
      (typeof expectedRevision === 'number' && current === expectedRevision);
    if (!matches) throw new WrongExpectedRevisionError(streamId, expectedRevision, current);
    return { nextRevision: current === 'no_stream' ? -1 : current, position: await this.headPosition() };
  }

  private async currentRevision(name: string): Promise<number | 'no_stream'> {
    const last = await this.lastEventOf(name);
    return last ? Number(last.revision) : 'no_stream';
  }

  private async positionOfRevision(name: string, revision: bigint): Promise<number> {
    try {
      const [resolved] = await collect(
        this.client.readStream(name, { direction: FORWARDS, fromRevision: revision, maxCount: 1 }),
      );
      const position = resolved ? positionOf(resolved) : undefined;
      if (position !== undefined) return Number(position.commit);
    } catch (error) {
      if (!isStreamNotFound(error)) throw error;
    }
    // Servers older than 22.6 do not report positions on stream reads: the head is a position
    // at or after the event, which is what a "wait until projected" caller needs.
    return this.headPosition();
  }

  private async lastEventOf(name: string): Promise<AnyRecordedEvent | undefined> {
    try {
      const [resolved] = await collect(
        this.client.readStream(name, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }),
      );
      return resolved?.event;
    } catch (error) {
      if (isStreamNotFound(error)) return undefined;
      throw error;
    }
  }
}

function toEventData(event: NewEvent): EventData {
  const { correlationId, causationId, ...rest } = event.metadata;
  const metadata: StoredMetadata = {
    ...rest,
    $correlationId: correlationId,
    ...(causationId !== null ? { $causationId: causationId } : {}),
    schemaVersion: event.schemaVersion,
  };
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: (event.data ?? null) as JSONType,
    metadata: metadata as unknown as Record<string, unknown>,
  });
}

function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (!Number.isSafeInteger(expected) || expected < 0) {
    throw new RangeError(`Invalid expected revision: ${expected}`);
  }
  return BigInt(expected);
}

function fromCurrentRevision(current: bigint | typeof NO_STREAM | undefined): number | 'no_stream' {
  return typeof current === 'bigint' ? Number(current) : 'no_stream';
}

/**
 * A position the store gave (an event's commit = prepare position, see the class) as the driver's
 * `Position`; START is the beginning of the log. Valid only for such positions: the server refuses
 * a read from an offset where no record starts.
 */
function toReadPosition(position: number): ReadPosition {
  if (position <= START) return ESDB_START;
  const at = BigInt(position);
  return { commit: at, prepare: at };
}

function positionOf(resolved: AnyResolvedEvent): Position | undefined {
  if (resolved.event?.position) return resolved.event.position;
  if (resolved.commitPosition !== undefined) {
    return { commit: resolved.commitPosition, prepare: resolved.commitPosition };
  }
  return undefined;
}

function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/**
 * Not EventStoreDB's own (no `$` event type: system events, links; no `$` stream) and not the
 * adapter's own record of the store's identity.
 */
function isApplicationEvent(resolved: AnyResolvedEvent): boolean {
  const event = resolved.event;
  return (
    event !== undefined &&
    !event.type.startsWith('$') &&
    !event.streamId.startsWith('$') &&
    event.streamId !== STORE_IDENTITY_STREAM
  );
}

function toRecorded(resolved: AnyResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event) return undefined;
  const position = positionOf(resolved);
  const { schemaVersion, ...metadata } = readMetadata(event.metadata);
  return {
    id: event.id,
    type: event.type,
    schemaVersion,
    data: event.data,
    metadata,
    streamId: fromStoreStreamName(event.streamId),
    revision: Number(event.revision),
    // Stream reads carry positions on servers from 22.6 on; -1 marks an older server.
    position: position !== undefined ? Number(position.commit) : -1,
  };
}

function toStoredBytes(resolved: AnyResolvedEvent): StoredEventBytes | undefined {
  const recorded = toRecorded(resolved);
  if (!recorded || !resolved.event) return undefined;
  const { data, metadata } = resolved.event as { data: unknown; metadata: unknown };
  return {
    position: recorded.position,
    streamId: recorded.streamId,
    revision: recorded.revision,
    id: recorded.id,
    type: recorded.type,
    schemaVersion: recorded.schemaVersion,
    data: storedBytes(data),
    metadata: storedBytes(metadata),
  };
}

/** A binary payload as it is; a JSON one as the text the adapter wrote for it. */
export function storedBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value === undefined) return new Uint8Array(0);
  return Buffer.from(JSON.stringify(value), 'utf8');
}

/**
 * The port's metadata and the schema version from an event's metadata JSON. Correlation and
 * causation are read from the store's keys (`$correlationId`, `$causationId`) and, for events an
 * earlier release wrote, from `correlationId` / `causationId`. Events not written by this adapter
 * (no envelope in their metadata) get schema version 1.
 */
function readMetadata(raw: unknown): EventMetadata & { schemaVersion: number } {
  if (raw !== null && typeof raw === 'object' && !(raw instanceof Uint8Array) && !Array.isArray(raw)) {
    const { schemaVersion, $correlationId, $causationId, correlationId, causationId, ...rest } = raw as Record<
      string,
      unknown
    >;
    return {
      ...(rest as Omit<EventMetadata, 'correlationId' | 'causationId'>),
      correlationId: ($correlationId ?? correlationId) as string,
      causationId: (($causationId ?? causationId) as string | undefined) ?? null,
      schemaVersion: typeof schemaVersion === 'number' ? schemaVersion : 1,
    };
  }
  return { schemaVersion: 1 } as EventMetadata & { schemaVersion: number };
}

function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return (
    error instanceof WrongExpectedVersionError ||
    (error instanceof Error && (error as { type?: unknown }).type === ErrorType.WRONG_EXPECTED_VERSION)
  );
}

function isStreamNotFound(error: unknown): boolean {
  return (
    error instanceof StreamNotFoundError ||
    (error instanceof Error && (error as { type?: unknown }).type === ErrorType.STREAM_NOT_FOUND)
  );
}

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of read) out.push(item);
  return out;
}
