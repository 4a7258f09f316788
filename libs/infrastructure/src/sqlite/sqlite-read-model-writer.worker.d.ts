import type Database from './sqlite-driver';

export const MERGE_IN_JS: -1;

/** One transaction's steps, with the text of each statement they run, once. */
export interface Write {
  sqls: string[];
  /** Flat: `sql, n, ...params` or `MERGE_IN_JS, selectSql, updateSql, id, set, version`, repeated. */
  steps: unknown[];
}

export interface StepWriter {
  /** Runs the steps in one IMMEDIATE transaction. */
  write(write: Write): null;
}

export function openStepWriter(db: Database.Database): StepWriter;
