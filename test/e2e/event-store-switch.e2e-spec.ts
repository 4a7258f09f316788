import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../apps/api/src/config';
import { ADMIN_TOKEN, TestApp } from '../support/test-app';

/**
 * DATA_DIR's read models were projected from its events.db; started with another event store (an
 * events.db restored from elsewhere, or EVENT_STORE switched), a process refuses to start with a
 * configuration error that names both stores and the way out, projector and replica alike, and
 * the documented way out (empty read models, and the ledger moved aside) starts.
 */
describe('Read models of another event store', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-switch-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are refused at start with what to do, and rebuilt from the store on empty read models', async () => {
    const first = await TestApp.start({ PROJECTIONS: 'inline' }, dir);
    const ws = await first.request('POST', '/v1/admin/workspaces', {
      token: ADMIN_TOKEN,
      body: { name: 'First store', plan: 'pro' },
    });
    expect(ws.status).toBe(201);
    await first.stop();

    // Another event store under the same read models.
    for (const file of ['events.db', 'events.db-wal', 'events.db-shm']) rmSync(join(dir, file), { force: true });
    for (const env of [{ PROJECTIONS: 'external' }, { PROJECTIONS: 'inline' }]) {
      const refused = await TestApp.start(env, dir).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as Error).message).toMatch(
        /^the read models were projected from event store sqlite \S+, but this process's event store \(EVENT_STORE\) is sqlite \S+: .*rebuild them from this one/,
      );
    }

    // The ledger is of the other store too (test/e2e/ledger-store-switch.e2e-spec.ts): aside with them.
    for (const db of ['read-models.db', 'ledger.db']) {
      renameSync(join(dir, db), join(dir, `${db}.other-store`));
      for (const suffix of ['-wal', '-shm']) rmSync(join(dir, `${db}${suffix}`), { force: true });
    }
    const rebuilt = await TestApp.start({ PROJECTIONS: 'inline' }, dir);
    try {
      expect((await rebuilt.request('GET', '/ready')).status).toBe(200);
      const status = await rebuilt.admin('GET', '/projections');
      expect(status.status).toBe(200);
      for (const projection of status.body.projections) expect(projection).toMatchObject({ checkpoint: 0, head: 0 });
    } finally {
      await rebuilt.stop();
    }
  });
});
