/**
 * LIMITs are written into the SQL text, never bound as a parameter.
 *
 * SQLite (3.51, as better-sqlite3 builds it) reads a LIMIT that is a bare parameter while it
 * plans the statement (`computeLimitRegisters` calls `sqlite3ExprIsInteger` with the parse
 * context, which calls `sqlite3VdbeSetVarmask`). Binding a value to that parameter then expires
 * the statement, and its next step parses and plans the SQL again (`sqlite3Reprepare`). The driver
 * binds every parameter on every call, so every call of such a statement was prepared anew: 6%
 * of the CPU of a list request and about 1% of a create, in `perf`, and every look of an idle
 * subscription. A statement with its limit in the text is prepared once for that limit.
 * `sqlite-limit.spec.ts` keeps bound limits out of this folder.
 */
export function limitSql(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw new RangeError(`A LIMIT must be a non-negative integer, not ${limit}`);
  return `LIMIT ${limit}`;
}

/**
 * One statement per limit, each prepared on first use. Up to `capacity` limits are kept; a limit
 * beyond them gets a statement prepared for that call (what every call cost before), so that a
 * caller passing many different limits cannot grow the cache without bound.
 */
export class StatementsByLimit<S> {
  private readonly prepared = new Map<number, S>();

  constructor(
    private readonly prepare: (limit: string) => S,
    private readonly capacity = 16,
  ) {}

  get(limit: number): S {
    let statement = this.prepared.get(limit);
    if (statement === undefined) {
      statement = this.prepare(limitSql(limit));
      if (this.prepared.size < this.capacity) this.prepared.set(limit, statement);
    }
    return statement;
  }
}
