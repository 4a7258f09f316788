import { EventSchemaRegistry, eventSchemas } from '@app/domain';
import {
  AppendResult,
  EventStore,
  EventStoreIdentity,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StoredEventBytes,
  StreamAppend,
  SubscribeOptions,
  Subscription,
} from '../ports/event-store.port';

export interface UpcastingOptions {
  /** Called for every event of a type the registry does not know, each time one is read (a metric). */
  onUnknownType?(type: string): void;
  /** Told once per unknown type per process. */
  logger?: { warn(message: string): void };
}

/**
 * The one seam between the stored history and everything that reads it (aggregates, projectors,
 * history, exports, webhook payloads): a decorator of any EventStore adapter that hands out
 * every event in the current shape of its type (docs/events.md). Appends pass through untouched,
 * and the history itself is never rewritten. Events of unknown types pass through as they are
 * (evolve and the projectors ignore them) and are counted.
 */
export class UpcastingEventStore implements EventStore {
  private readonly reported = new Set<string>();

  constructor(
    private readonly inner: EventStore,
    private readonly schemas: EventSchemaRegistry = eventSchemas,
    private readonly options: UpcastingOptions = {},
  ) {}

  appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    return this.inner.appendToStream(streamId, events, options);
  }

  appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    return this.inner.appendToStreams(appends);
  }

  get atomicMultiStream(): boolean {
    return this.inner.atomicMultiStream;
  }

  async readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]> {
    return this.upcastAll(await this.inner.readStream(streamId, options));
  }

  async readAll(options: { after: number; maxCount: number }): Promise<RecordedEvent[]> {
    return this.upcastAll(await this.inner.readAll(options));
  }

  /** Stored bytes are never upcast: they are what the ledger commits to. */
  readAllStored(options: { after: number; maxCount: number }): Promise<StoredEventBytes[]> {
    return this.inner.readAllStored(options);
  }

  async readAt(position: number): Promise<RecordedEvent | undefined> {
    const event = await this.inner.readAt(position);
    return event && this.upcastAll([event])[0];
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.inner.subscribeToAll({ ...options, onEvents: (events) => options.onEvents(this.upcastAll(events)) });
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  identity(): Promise<EventStoreIdentity> {
    return this.inner.identity();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /**
   * On the hot path of every read: most events are already current, so the adapter's array is
   * returned as it is and copied only when an event in it does change.
   */
  private upcastAll(events: RecordedEvent[]): RecordedEvent[] {
    let result = events;
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      if (!this.schemas.isKnown(event.type)) {
        this.unknown(event.type);
        continue;
      }
      const current = this.schemas.upcast(event);
      if (current === event) continue;
      if (result === events) result = events.slice();
      result[i] = current;
    }
    return result;
  }

  private unknown(type: string) {
    this.options.onUnknownType?.(type);
    if (this.reported.has(type)) return;
    this.reported.add(type);
    this.options.logger?.warn(
      `Events of unknown type ${JSON.stringify(type)} in the store (written by a newer release?): aggregates and projections ignore them`,
    );
  }
}
