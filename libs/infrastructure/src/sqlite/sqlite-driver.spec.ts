import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { NewEvent } from '@app/application/ports';
import Database from './sqlite-driver';
import { SqliteEventStore } from './sqlite-event-store';

describe('the SQLite driver', () => {
  const napi = Number(process.versions.napi);
  // Never require('better-sqlite3') itself where it is not the choice: 13 crashes on load there.
  const chosen = napi >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20';

  /* eslint-disable @typescript-eslint/no-require-imports -- the module is chosen by name at run time */
  it(`is ${chosen} on Node ${process.version} (Node-API ${napi}): 13 where Node-API 10 exists, 12 before`, () => {
    expect(Database).toBe(require(chosen));
    const major = Number((require(`${chosen}/package.json`) as { version: string }).version.split('.')[0]);
    expect(major).toBe(napi >= 10 ? 13 : 12);
  });
  /* eslint-enable @typescript-eslint/no-require-imports */

  it('opens, prepares and closes', () => {
    const db = new Database(':memory:');
    expect(db.prepare('SELECT 1 + ? AS two').get(1)).toEqual({ two: 2 });
    db.close();
  });
});

describe('the event store writer thread', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'wos-writer-'))));
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('closes its database and exits by itself on close: no terminate()', async () => {
    const terminate = jest.spyOn(Worker.prototype, 'terminate');
    const store = new SqliteEventStore(join(dir, 'events.db'));
    const event: NewEvent = {
      id: 'e-1',
      type: 'test.happened',
      schemaVersion: 1,
      data: {},
      metadata: {} as NewEvent['metadata'],
    };
    await store.appendToStream('s-1', [event], { expectedRevision: 'no_stream' });
    await store.close();
    expect(terminate).not.toHaveBeenCalled();
    // What it wrote is on disk, readable by a fresh connection.
    const db = new Database(join(dir, 'events.db'), { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 1 });
    db.close();
  });
});
