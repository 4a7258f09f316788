import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteOperatorCredentialStore } from '@app/infrastructure/sqlite';
import { timeOrderedIds } from '../shared/time-ordered-ids';
import { OPERATOR_NOT_FOUND, OperatorCredentials } from './operator-credentials';

describe('OperatorCredentials', () => {
  let dir: string;
  let store: SqliteOperatorCredentialStore;
  let credentials: OperatorCredentials;
  const clock = { at: 1_000, now: () => clock.at };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-operators-'));
    store = new SqliteOperatorCredentialStore(join(dir, 'operators.db'));
    credentials = new OperatorCredentials(store, clock, timeOrderedIds);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands the token out once and keeps only its SHA-256', async () => {
    const { id, token } = await credentials.create('Night shift', 'auditor');
    expect(token).toMatch(/^opk_[A-Za-z0-9_-]{43}$/);
    const [record] = await store.list();
    expect(record).toEqual({
      id,
      name: 'Night shift',
      role: 'auditor',
      tokenHash: createHash('sha256').update(token).digest('hex'),
      createdAt: 1_000,
      revokedAt: null,
    });
    expect(JSON.stringify(await credentials.list())).not.toContain(token);
  });

  it('knows the holder of a valid token only: not a malformed, unknown or revoked one', async () => {
    const { id, token } = await credentials.create('Ops', 'operator');
    expect(await credentials.authenticate(token)).toEqual({ id, name: 'Ops', role: 'operator' });
    expect(await credentials.authenticate(`${token}x`)).toBeNull();
    expect(await credentials.authenticate(`opk_${'A'.repeat(43)}`)).toBeNull();

    clock.at = 2_000;
    expect(await credentials.revoke(id)).toMatchObject({ status: 'revoked', revoked_at: 2_000 });
    expect(await credentials.authenticate(token)).toBeNull();
    await expect(credentials.revoke('opr_missing')).rejects.toMatchObject({ message: OPERATOR_NOT_FOUND });
  });
});
