import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteIdempotencyStore } from '@app/infrastructure/sqlite';
import { inTemporaryDirectory } from './adapter-under-test';
import { idempotencyStoreContract } from './idempotency-store.contract';

idempotencyStoreContract(
  'sqlite',
  inTemporaryDirectory('idem-contract-', (dir) => new SqliteIdempotencyStore(join(dir, 'idempotency.db'))),
);

describe('SqliteIdempotencyStore', () => {
  it('keeps records across reopening, and two handles on one file give a key to one claim only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-file-'));
    const file = join(dir, 'idempotency.db');
    const claim = {
      scope: 's',
      key: 'k',
      fingerprint: 'f',
      owner: 'o1',
      now: 1,
      lockedUntil: 1_000,
      expiresAt: 10_000,
    };
    try {
      const first = new SqliteIdempotencyStore(file);
      const second = new SqliteIdempotencyStore(file);
      expect((await first.claim(claim)).outcome).toBe('claimed');
      expect((await second.claim({ ...claim, owner: 'o2' })).outcome).toBe('in_progress');
      await first.complete('s', 'k', 'o1', { status: 201, headers: {}, body: '{}' });
      await first.close();
      await second.close();
      const reopened = new SqliteIdempotencyStore(file);
      expect((await reopened.claim({ ...claim, owner: 'o3' })).outcome).toBe('completed');
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
