/**
 * The read model port: documents that the GET endpoints serve, written only by projectors.
 * Adapters: embedded SQLite (default) and MongoDB; both pass test/contract/read-model.contract.ts.
 *
 * Every document has an id (unique within its collection), the workspace it belongs to, and a
 * `seq`: the store position of the event that created it. Lists are ordered by `seq`, so a cursor
 * is just the last `seq` seen and the order stays stable while documents are added. Documents
 * written at one position (one event, several documents) follow each other in id order: every
 * adapter gives the same total order, with or without a limit.
 */
export const READ_MODEL_STORE = Symbol('ReadModelStore');

export type Scalar = string | number | boolean | null;
/**
 * Equality on a field of the document, membership in a list, or a numeric range (inclusive). A
 * field is named by its key, or by a dotted path into nested objects (`actor.id`).
 */
export type Condition = Scalar | { in: Scalar[] } | { gte?: number; lte?: number };
export type Filter = Record<string, Condition>;

export interface CollectionSpec {
  name: string;
  /**
   * Top-level document fields looked up often enough to deserve an index, within a workspace and
   * across workspaces (an API key by its hash): indexed alone and after the workspace.
   */
  indexes?: string[];
  /**
   * Fields only ever looked up within one workspace (a tenant's projects by status): indexed after
   * the workspace only. Every write to the collection maintains one index fewer per field (the
   * audit feed is written once per event), and a query on such a field without a workspace is
   * refused (`assertWithinWorkspace`) rather than left to scan every tenant's documents.
   */
  workspaceIndexes?: string[];
  /**
   * Fields whose values each belong to one workspace (ids: an actor, a request), looked up within
   * a workspace and across: indexed as (field, list order), which serves both in order.
   */
  orderedIndexes?: string[];
  /**
   * The collection is also listed across workspaces in list order (the operators' audit feed), and
   * its `workspaceIndexes` fields may then be filtered without a workspace (they filter that walk,
   * which stops at the page's limit). `indexed`: on an index of the list order alone, one more
   * entry for every write. `scanned`: by walking the whole collection for each read, for lists read
   * rarely by people where that entry would cost every write more than the reads would save.
   */
  listedAcrossWorkspaces?: 'indexed' | 'scanned';
}

/** Every field of `spec` that has an index, looked up across workspaces or within one. */
export const indexedFields = (spec: CollectionSpec): string[] => [
  ...(spec.indexes ?? []),
  ...(spec.workspaceIndexes ?? []),
  ...(spec.orderedIndexes ?? []),
];

/** Refuses a query of `spec` that filters on a field indexed within a workspace without naming one. */
export function assertWithinWorkspace(spec: CollectionSpec, query: { workspaceId?: string; where?: Filter }): void {
  if (query.workspaceId !== undefined || spec.listedAcrossWorkspaces || !spec.workspaceIndexes || !query.where) return;
  for (const field of spec.workspaceIndexes) {
    if (field in query.where) {
      throw new Error(`${spec.name}.${field} is indexed within a workspace only: query it with a workspaceId`);
    }
  }
}

/**
 * A document as read: read-only for the caller, the envelope and the document alike. An adapter
 * that caches may hand the same objects to every reader while the document is unchanged (and
 * freeze them); a caller that needs another shape builds a new object.
 */
export interface StoredDocument<T = Record<string, unknown>> {
  id: string;
  workspaceId: string | null;
  seq: number;
  /** Revision of the aggregate stream the document mirrors (the resource's ETag); 0 if unknown. */
  version: number;
  doc: T;
}

/**
 * `at` is the store position of the event behind the write (the engine stamps it). An adapter
 * whose documents more than one process could write (MongoDB: a projector that has not yet seen
 * its lease lost) refuses a write older than what the document already reflects, so a late batch
 * never rolls a document back (read-model.contract.ts, `guardsStaleWrites`). The SQLite adapter
 * ignores it: the OS lock on DATA_DIR/projector.lock makes its projector the only writer.
 */
export type WriteOp = (
  | {
      op: 'put';
      collection: string;
      id: string;
      workspaceId: string | null;
      seq: number;
      version?: number;
      doc: Record<string, unknown>;
    }
  /** Sets top-level fields of an existing document; a missing document is left missing. */
  | { op: 'merge'; collection: string; id: string; version?: number; set: Record<string, unknown> }
  | { op: 'delete'; collection: string; id: string }
  | { op: 'deleteWhere'; collection: string; workspaceId: string; where: Filter }
) & { at?: number };

export interface FindQuery {
  workspaceId?: string;
  where?: Filter;
  /** Only documents listed after / before these positions (exclusive bounds on `seq`). */
  afterSeq?: number;
  beforeSeq?: number;
  /** Newest first: `seq` then id, both descending. Default: ascending. */
  descending?: boolean;
  limit: number;
}

export interface InitOptions {
  /**
   * The collections are about to be filled in bulk from history (a rebuild's or a verification's
   * fresh collections, swapped in or dropped afterwards). An adapter may postpone their secondary
   * indexes until `swap`, or until the first query that would need them: building an index over a
   * full table in one pass is far cheaper than maintaining it write by write. Results are the same
   * either way; only queries made before the swap may be slower.
   */
  bulkLoad?: boolean;
}

/**
 * An event one projection could not apply (its projector threw): parked for that projection only,
 * while its checkpoint moves on and every other projection stays live. Keyed by projection and
 * position; an operator retries (the event is read again from the store) or skips it.
 */
export interface DeadLetter {
  projection: string;
  position: number;
  eventId: string;
  streamId: string;
  eventType: string;
  /** The projector's error message (never the event's data: it may hold personal data). */
  error: string;
  /** Milliseconds since the epoch. */
  firstFailedAt: number;
  lastFailedAt: number;
  /** Times the projector failed on it: 1 when parked, one more per failed retry. */
  attempts: number;
}

export interface DeadLetterKey {
  projection: string;
  position: number;
}

/** Dead-letter changes written in the same transaction as a batch's ops and checkpoints. */
export interface DeadLetterChanges {
  /** Stored, replacing any dead letter with the same key. */
  park?: DeadLetter[];
  /** Removed (a retry that succeeded, or a skip). */
  remove?: DeadLetterKey[];
}

export interface ReadModelStore {
  /** Creates collections and indexes that do not exist yet. */
  init(collections: CollectionSpec[], options?: InitOptions): Promise<void>;
  get<T = Record<string, unknown>>(collection: string, id: string): Promise<StoredDocument<T> | null>;
  /** A new array, the caller's to reorder or trim; the documents in it are read-only (see StoredDocument). */
  find<T = Record<string, unknown>>(collection: string, query: FindQuery): Promise<StoredDocument<T>[]>;
  count(collection: string, query: Omit<FindQuery, 'limit' | 'afterSeq' | 'beforeSeq' | 'descending'>): Promise<number>;
  /**
   * Applies the writes in order, records the checkpoints and the dead-letter changes. An adapter
   * that cannot make them atomic must make re-applying the same ops harmless (projections replay
   * from the checkpoint) and write the dead letters before the checkpoints, so a crash between the
   * two parks the event again on replay rather than losing it. Calls land in the order they were
   * made, also when one is made before the last has resolved (a replay keeps several batches in
   * flight); each resolves once it and every call before it have landed or failed. A checkpoint
   * never moves backwards: a lower position than the stored one leaves it as it is (`drop` is the
   * way to start a projection over).
   */
  apply(ops: WriteOp[], checkpoints: Record<string, number>, deadLetters?: DeadLetterChanges): Promise<void>;
  getCheckpoints(): Promise<Record<string, number>>;
  /**
   * Optional: calls `onChange` soon after any process writes a checkpoint (MongoDB: a change stream
   * on the checkpoints collection), so a replica waiting on the projector's checkpoints is woken
   * instead of polling fast; `onError` when the watch dies or cannot start (a standalone server has
   * no change streams), after which the caller polls. Absent: the caller polls.
   */
  watchCheckpoints?(onChange: () => void, onError: (error: unknown) => void): { close(): Promise<void> };
  /** Current dead letters (of one projection, when named), in projection then position order. */
  listDeadLetters(projection?: string): Promise<DeadLetter[]>;
  /** Removes one dead letter; false when there was none with that key. */
  removeDeadLetter(key: DeadLetterKey): Promise<boolean>;
  /** Every document of a collection, in id order (verification, exports). */
  scan<T = Record<string, unknown>>(collection: string): AsyncIterable<StoredDocument<T>>;
  /** Removes the collections entirely (they must be init-ed again before use) and the named checkpoints. */
  drop(collections: string[], checkpointNames: string[]): Promise<void>;
  /**
   * Blue/green switch of a rebuilt projection: each `to` collection is replaced by its `from`
   * (which disappears under its own name) and the checkpoints are set, as one step for readers.
   */
  swap(
    pairs: { from: string; to: string }[],
    checkpoints: Record<string, number>,
    dropCheckpoints: string[],
  ): Promise<void>;
  close(): Promise<void>;
}
