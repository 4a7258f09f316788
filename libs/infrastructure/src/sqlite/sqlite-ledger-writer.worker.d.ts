import type Database from './sqlite-driver';

export const HASH_BYTES: 32;

/** One append of leaves and the state after them (see sqlite-ledger-writer.worker.js). */
export interface LedgerAppend {
  first: number;
  /** The leaves' 32-byte hashes, end to end. */
  hashes: Uint8Array;
  positions: number[];
  eventIds: string[];
  size: number;
  checkpoint: number;
  /** JSON text of the frontier's subtree roots, as hex. */
  frontier: string;
}

/** null when appended; the stored size when it is not `first` (nothing written). */
export type LedgerAppendResult = null | { conflict: number };

export interface LedgerAppender {
  /** Runs the append in one IMMEDIATE transaction. */
  append(append: LedgerAppend): LedgerAppendResult;
}

export function openLedgerAppender(db: Database.Database): LedgerAppender;
