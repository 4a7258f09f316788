import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSubjectKeyStore } from '@app/infrastructure/sqlite';
import { inTemporaryDirectory } from './adapter-under-test';
import { subjectKeyStoreContract } from './subject-key-store.contract';

subjectKeyStoreContract(
  'sqlite',
  inTemporaryDirectory('keys-contract-', (dir) => new SqliteSubjectKeyStore(join(dir, 'keys.db'))),
);

it('leaves no copy of a destroyed key in the SQLite files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keys-wipe-'));
  try {
    const store = new SqliteSubjectKeyStore(join(dir, 'keys.db'));
    const key = (await store.getOrCreate('usr_wiped'))!;
    await store.destroy('usr_wiped');
    await store.close();
    const bytes = Buffer.concat(
      ['keys.db', 'keys.db-wal'].flatMap((f) => {
        try {
          return [readFileSync(join(dir, f))];
        } catch {
          return [];
        }
      }),
    );
    expect(bytes.includes(key)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
