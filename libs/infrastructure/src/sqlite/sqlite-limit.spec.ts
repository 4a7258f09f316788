import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from './sqlite-driver';
import { limitSql, StatementsByLimit } from './sqlite-limit';

describe('LIMITs in the SQLite adapters', () => {
  it('writes a limit into the SQL text, and refuses what is not a non-negative integer', () => {
    expect(limitSql(51)).toBe('LIMIT 51');
    expect(limitSql(0)).toBe('LIMIT 0');
    for (const bad of [-1, 1.5, Number.NaN, Infinity, 2 ** 53])
      expect(() => limitSql(bad)).toThrow('A LIMIT must be a non-negative integer');
  });

  it('prepares one statement per limit, and keeps no more than its capacity', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (n INTEGER)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let n = 1; n <= 10; n++) insert.run(n);
    const prepared: string[] = [];
    const byLimit = new StatementsByLimit((limit) => {
      prepared.push(limit);
      return db.prepare(`SELECT n FROM t ORDER BY n ${limit}`).pluck();
    }, 2);

    expect(byLimit.get(3).all()).toEqual([1, 2, 3]);
    expect(byLimit.get(3).all()).toEqual([1, 2, 3]);
    expect(byLimit.get(5).all()).toEqual([1, 2, 3, 4, 5]);
    expect(prepared).toEqual(['LIMIT 3', 'LIMIT 5']);
    // Past its capacity, a new limit is prepared for each call and not kept.
    expect(byLimit.get(1).all()).toEqual([1]);
    expect(byLimit.get(1).all()).toEqual([1]);
    expect(byLimit.get(3).all()).toEqual([1, 2, 3]);
    expect(prepared).toEqual(['LIMIT 3', 'LIMIT 5', 'LIMIT 1', 'LIMIT 1']);
    db.close();
  });

  it('are never bound: a bound LIMIT makes SQLite prepare the statement again on every call', () => {
    const bound = /LIMIT\s+(\?|[@:]\w|\$(?!\{))/i; // `?`, `@limit`, `:limit`, `$limit`, not `${...}`
    const sources = readdirSync(__dirname).filter((file) => /\.(ts|js)$/.test(file) && !/\.spec\.ts$/.test(file));
    expect(sources.length).toBeGreaterThan(5);
    const offenders = sources.filter((file) => bound.test(readFileSync(join(__dirname, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
