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

/** What a build step answers: how many leaves it appended and the state after them (frontier as JSON hex). */
export interface LedgerBuilt {
  appended: number;
  size: number;
  checkpoint: number;
  frontier: string;
}

export interface LedgerBuilder {
  /** Reads, hashes and appends up to `maxCount` events after the stored checkpoint, in one transaction. */
  build(maxCount: number): LedgerBuilt;
}

export function openLedgerBuilder(db: Database.Database, events: Database.Database): LedgerBuilder;
export function openEventsReader(file: string): Database.Database;
