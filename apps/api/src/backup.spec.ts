import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesToBackUp } from './backup';

describe('what a backup copies, and in which order', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'backup-list-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('copies what derives from the events before them and the keys after them; never side files, the cache or the lock', () => {
    for (const name of [
      'admin-token',
      'events.db',
      'events.db-wal',
      'events.db-shm',
      'idempotency.db',
      'keys.db',
      'keys.db-journal',
      'projector.lock',
      'projector.lock-journal',
      'read-models.db',
      'snapshots.db',
      'webhook-secrets.key',
      '.admin-token.123.abcdef.tmp',
      'webhooks.db',
    ])
      writeFileSync(join(dir, name), 'x');
    mkdirSync(join(dir, 'backups'));
    expect(filesToBackUp(dir)).toEqual([
      'idempotency.db',
      'read-models.db',
      'webhooks.db',
      'events.db',
      'keys.db',
      'admin-token',
      'webhook-secrets.key',
    ]);
  });
});
