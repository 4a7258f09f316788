import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNLIMITED_RATE } from '../support/reliability-profile';
import { ServiceClient } from '../support/service-client';
import type { ServiceProcess } from '../support/service-process';
import { startServiceProcess } from '../support/service-start';

/**
 * One projector per embedded DATA_DIR, as real processes: PROJECTIONS=inline is the default, so a
 * second process started on the same DATA_DIR without PROJECTIONS=external would write the read
 * models beside the first. It is refused at start, with what to do instead; a projector started
 * while the previous one shuts down (a restart) waits for it and takes over; a replica is never
 * held back.
 */

const ADMIN_TOKEN = 'one-projector-admin-token-0123456789ab';
// `warn`: no request log, and the warning of a projector that waits for the lock is shown.
const ENV = { ADMIN_TOKEN, LOG_LEVEL: 'warn', ...UNLIMITED_RATE };

jest.setTimeout(90_000);

describe('One projector per DATA_DIR', () => {
  let dir: string;
  const running: ServiceProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const service = await startServiceProcess({ ...ENV, DATA_DIR: dir, ...env });
    running.push(service);
    return service;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-one-projector-'));
  });
  afterAll(async () => {
    for (const service of running) await service.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second projector while the first runs, and lets a replica in', async () => {
    const projector = await start({});
    // The wait for the first to let go (15 s), then a configuration error (exit code 2).
    const refused = await start({}).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/service exited with 2/);
    expect((refused as Error).message).toContain(
      `Another process holds ${join(dir, 'projector.lock')} (the projector of this DATA_DIR): waiting up to 15 s for it to stop`,
    );
    expect((refused as Error).message).toContain(
      `Configuration error: another process is the projector of DATA_DIR ${dir} (PROJECTIONS=inline, the default)`,
    );
    expect((refused as Error).message).toContain('Start this process with PROJECTIONS=external');

    const replica = await start({ PROJECTIONS: 'external' });
    const tenant = await new ServiceClient(projector.baseUrl, ADMIN_TOKEN).provision({ name: 'One' });
    const created = await new ServiceClient(replica.baseUrl, ADMIN_TOKEN).call('POST', '/v1/projects', tenant.fullKey, {
      name: 'Through the replica',
      description: 'projected by the one projector',
      status: 'draft',
      start_date: '2026-01-01',
    });
    expect(created.status).toBe(201);
    expect(created.headers['x-read-consistency']).toBeUndefined();
  });

  it('a projector started during the previous one’s shutdown takes over once it has stopped', async () => {
    const [previous] = running;
    let up = false;
    const next = start({}).then((service) => ((up = true), service));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(up).toBe(false); // waiting for the lock, not serving beside the previous projector
    expect(await previous.stop('SIGTERM')).toBe(0);
    const projector = await next;
    const ready = await new ServiceClient(projector.baseUrl, ADMIN_TOKEN).request({ method: 'GET', path: '/ready' });
    expect(ready.status).toBe(200);
  });

  it('after kill -9 of the projector, the next one starts without waiting for a lock left behind', async () => {
    const projector = running[running.length - 1];
    expect(await projector.stop('SIGKILL')).toBeNull();
    const started = Date.now();
    await start({});
    // Well under the 15 s a held lock would cost: the operating system dropped it with the process.
    expect(Date.now() - started).toBeLessThan(12_000);
  });
});
