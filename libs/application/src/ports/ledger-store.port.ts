import type { EventStoreIdentity } from './event-store.port';

/**
 * Where the ledger (the Merkle log over the event store's history, docs/ledger.md) is kept.
 * Adapters: SQLite (DATA_DIR/ledger.db) and MongoDB; both pass test/contract/ledger-store.contract.ts.
 * One writer (the projector's LedgerBuilder) appends; every process reads.
 */
export const LEDGER_STORE = Symbol('LedgerStore');

/** Leaf `index` (from 0) is the event at `position` of the store, its hash per docs/ledger.md. */
export interface LedgerLeaf {
  index: number;
  position: number;
  eventId: string;
  hash: Buffer;
}

/**
 * How far the log is: its size, the position of its last leaf's event (the checkpoint the next
 * read continues after) and the compact frontier (roots of its perfect subtrees, largest first)
 * from which the next root is computed without reading the leaves.
 */
export interface LedgerState {
  size: number;
  checkpoint: number;
  frontier: Buffer[];
}

/** A signed tree head as the API answers it (root and signature as text). */
export interface SignedHead {
  size: number;
  /** Lowercase hex of the root. */
  root: string;
  /** ISO 8601, milliseconds, UTC. */
  signed_at: string;
  key_id: string;
  /** Base64 of the Ed25519 signature. */
  signature: string;
}

export interface StoredHead {
  /** Grows with each head kept: the list's order (newest first) and its cursor. */
  seq: number;
  head: SignedHead;
}

export class LedgerConflictError extends Error {
  constructor(expected: number, actual: number) {
    super(`The ledger holds ${actual} leaves; an append expected ${expected}: another writer appended`);
    this.name = 'LedgerConflictError';
  }
}

export interface LedgerStore {
  state(): Promise<LedgerState>;
  /**
   * Appends leaves (consecutive indexes, the first = the stored size) and the state after them,
   * in one atomic write; a LedgerConflictError if the stored size is not the first index.
   */
  append(leaves: LedgerLeaf[], next: LedgerState): Promise<void>;
  /**
   * Present on an adapter that reads the event store the log is built from by itself (the embedded
   * one, on its writer thread): hashes and appends up to `maxCount` events after the stored
   * checkpoint, as the Ledger's own step would (the same leaves and tree, from the same code),
   * and answers how many it appended and the state after them.
   */
  buildNext?(maxCount: number): Promise<{ appended: number; state: LedgerState }>;
  /** The hashes of leaves [start, end), in order; callers keep ranges small (memory). */
  leafHashes(start: number, end: number): Promise<Buffer[]>;
  leafAtPosition(position: number): Promise<LedgerLeaf | undefined>;
  leafOfEvent(eventId: string): Promise<LedgerLeaf | undefined>;
  addHead(head: SignedHead): Promise<void>;
  /** Newest first: up to `limit` heads with seq below `before` (all when undefined). */
  listHeads(options: { before?: number; limit: number }): Promise<StoredHead[]>;
  countHeads(): Promise<number>;
  /**
   * The event store the log was built from (its `identity()`, as the read models' `projected_from`
   * records theirs), or null for a log nobody has stamped: leaf i is the i-th event of that store.
   */
  source(): Promise<EventStoreIdentity | null>;
  /** Records the event store the log is built from, in place of any recorded before. */
  stampSource(store: EventStoreIdentity): Promise<void>;
  /**
   * Drops every leaf and the state (a rebuild); kept heads stay: they are what a rebuild is checked
   * against. The recorded source stays until the rebuild stamps its own.
   */
  clearLeaves(): Promise<void>;
  close(): Promise<void>;
}
