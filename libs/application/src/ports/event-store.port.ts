import { Actor } from '@app/domain';

/**
 * The event store port. Adapters: embedded SQLite (default) and EventStoreDB.
 * Both pass test/contract/event-store.contract.ts.
 *
 * Streams hold one aggregate each; revisions count from 0 within a stream. Positions order
 * every event of the store ($all); they only grow, but need not be dense (EventStoreDB's are
 * log offsets). Every "after" below is exclusive: `after: p` yields events whose position > p,
 * and `START` (0) yields everything. A position given to the store is START or one the store gave
 * (an event's, a checkpoint): never computed. EventStoreDB refuses to read from an offset where
 * no record starts, so `p - 1` is not "just before p" there; `readAt(p)` is how to read event p.
 */
export const EVENT_STORE = Symbol('EventStore');
export const START = 0;

export interface EventMetadata {
  workspaceId: string | null;
  actor: Actor;
  requestId: string | null;
  correlationId: string;
  causationId: string | null;
  /** Milliseconds since the epoch, set by the writer (the clock port). */
  recordedAt: number;
}

export interface NewEvent {
  /** Unique per event; appending an event id already in the stream is a no-op (idempotent retry). */
  id: string;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  streamId: string;
  revision: number;
  position: number;
}

/**
 * An event exactly as the store holds it: its data and metadata as the stored bytes, never parsed
 * or upcast (sealed personal data as its ciphertext). What the ledger hashes (docs/ledger.md).
 */
export interface StoredEventBytes {
  position: number;
  streamId: string;
  revision: number;
  id: string;
  type: string;
  schemaVersion: number;
  data: Uint8Array;
  metadata: Uint8Array;
}

/** `no_stream`: the stream must not exist; a number: the revision of its last event. */
export type ExpectedRevision = 'any' | 'no_stream' | number;

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  nextRevision: number;
  /** Position of the last event written (or found, for an idempotent re-append). */
  position: number;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Wrong expected revision on ${streamId}: expected ${expected}, actual ${actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** One stream's part of a multi-stream append. */
export interface StreamAppend {
  streamId: string;
  /** May be empty: the stream's revision is then only checked (a condition of the write). */
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
}

export interface Subscription {
  /** Stops delivery; resolves once the handler is no longer running. */
  stop(): Promise<void>;
}

/**
 * Which store an event store is. Its positions (checkpoints, dead letters) mean something in it
 * alone: another file, cluster or emptied store has other events at the same numbers.
 */
export interface EventStoreIdentity {
  /** The adapter: `sqlite` or `eventstoredb`. */
  kind: string;
  /** Made once, when the store first holds anything, and kept in it: every process reads the same. */
  id: string;
}

export interface SubscribeOptions {
  /** Exclusive checkpoint: delivery starts with the first event after it. */
  after: number;
  /** Called with events in position order; the next batch waits for the returned promise. */
  onEvents(events: RecordedEvent[]): Promise<void>;
  /** Called if the subscription dies; the subscriber decides whether to resubscribe. */
  onError?(error: unknown): void;
}

export interface EventStore {
  appendToStream(
    streamId: string,
    events: NewEvent[],
    options: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;
  /**
   * Appends to several streams, each checked against its own expected revision; one result per
   * append, in order. A wrong expected revision anywhere rejects with WrongExpectedRevisionError.
   *
   * With `atomicMultiStream` (the embedded store) it is all or nothing: one transaction. Without
   * it (EventStoreDB before KurrentDB 25.1 has no multi-stream transaction) the appends are made in
   * the order given and stop at the first failure, so a failure can leave a prefix written: callers
   * order the appends so that every prefix is safe, and a reconciler finishes or undoes what a
   * prefix started (docs/decisions.md, "Rules across streams").
   */
  appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]>;
  /** Whether appendToStreams is one atomic write. */
  readonly atomicMultiStream: boolean;
  /** Events of one stream in revision order; an empty array when the stream does not exist. */
  readStream(streamId: string, options?: { fromRevision?: number; maxCount?: number }): Promise<RecordedEvent[]>;
  /** Events of every stream in position order. */
  readAll(options: { after: number; maxCount: number }): Promise<RecordedEvent[]>;
  /**
   * Events of every stream in position order, as stored (the bytes of their data and metadata),
   * the same events readAll gives.
   */
  readAllStored(options: { after: number; maxCount: number }): Promise<StoredEventBytes[]>;
  /** The event recorded at exactly `position` (one the store gave), or undefined when none is. */
  readAt(position: number): Promise<RecordedEvent | undefined>;
  /** Catch-up from `after`, then live, until stopped. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  /** Position of the newest event, or START when the store is empty. */
  headPosition(): Promise<number>;
  /** Which store this is (kept in the store itself, so a restored copy is the same store). */
  identity(): Promise<EventStoreIdentity>;
  close(): Promise<void>;
}
