import { renameSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../apps/api/src/config';
import { ADMIN_TOKEN, TestApp } from '../support/test-app';

const moveAside = (dir: string, db: string) => {
  renameSync(join(dir, db), join(dir, `${db}.other-store`));
  for (const suffix of ['-wal', '-shm']) rmSync(join(dir, `${db}${suffix}`), { force: true });
};

/**
 * DATA_DIR's ledger was built from its events.db; started with another event store (read models
 * rebuilt for it), a process refuses to start with a configuration error naming both stores and
 * the way out, projector and replica alike, and the documented way out (the ledger moved aside)
 * builds the log from the store it runs on.
 */
describe('A ledger of another event store', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-ledger-switch-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused at start with what to do, and built from the store once moved aside', async () => {
    const first = await TestApp.start({ PROJECTIONS: 'inline' }, dir);
    for (const name of ['One', 'Two']) {
      const ws = await first.request('POST', '/v1/admin/workspaces', {
        token: ADMIN_TOKEN,
        body: { name, plan: 'pro' },
      });
      expect(ws.status).toBe(201);
    }
    const head = await first.admin('POST', '/ledger/heads');
    expect(head.status).toBe(201);
    expect(head.body.size).toBeGreaterThanOrEqual(2);
    await first.stop();

    // Another event store, with read models of its own: only the ledger is of the first store.
    for (const file of ['events.db', 'events.db-wal', 'events.db-shm']) rmSync(join(dir, file), { force: true });
    moveAside(dir, 'read-models.db');
    for (const env of [{ PROJECTIONS: 'inline' }, { PROJECTIONS: 'external' }]) {
      const refused = await TestApp.start(env, dir).then(
        async (started) => started.stop().then(() => started),
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as Error).message).toMatch(
        /^the ledger was built from event store sqlite \S+, but this process's event store \(EVENT_STORE\) is sqlite \S+: .*move DATA_DIR\/ledger\.db aside/,
      );
    }

    moveAside(dir, 'ledger.db');
    const rebuilt = await TestApp.start({ PROJECTIONS: 'inline' }, dir);
    try {
      const ws = await rebuilt.request('POST', '/v1/admin/workspaces', {
        token: ADMIN_TOKEN,
        body: { name: 'Three', plan: 'pro' },
      });
      expect(ws.status).toBe(201);
      const signed = await rebuilt.admin('POST', '/ledger/heads');
      expect(signed.status).toBe(201);
      expect(signed.body.size).toBeGreaterThanOrEqual(1);
      expect(signed.body.size).toBeLessThan(head.body.size);
    } finally {
      await rebuilt.stop();
    }
    // The log stamped with the store it was built from starts again.
    const again = await TestApp.start({ PROJECTIONS: 'inline' }, dir);
    await again.stop();
  });
});
