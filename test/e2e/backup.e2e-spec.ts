import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../support/service-process';

/**
 * `cli backup` as docs/operations.md (Backups) runs it: against the DATA_DIR of the built service
 * running as a process, while projects are being created, then a service started on the backup
 * serves what was acknowledged before the backup, personal data included (keys.db came along),
 * with read models equal to a replay.
 */

const CLI = join(__dirname, '../../dist/apps/api/src/cli.js');

function backUp(dataDir: string, target: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'backup', target],
      { env: { ...process.env, DATA_DIR: dataDir } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('cli backup of a running service', () => {
  const dirs: string[] = [];
  const services: ServiceProcess[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const service of services) await service.stop('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('copies every store and key while writes go on, and a service started on the copy serves them', async () => {
    const dataDir = tempDir('wos-backup-data-');
    const service = await ServiceProcess.start({ DATA_DIR: dataDir, ADMIN_TOKEN: '' });
    services.push(service);
    const admin = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const base = service.baseUrl;
    const ws = await call(base, admin, 'POST', '/v1/admin/workspaces', {
      name: 'Backed up',
      plan: 'enterprise',
      project_limit: null,
    });
    const key = await call(base, admin, 'POST', `/v1/admin/workspaces/${ws.body.id}/api-keys`, {
      name: 'k',
      scope: 'full_access',
    });
    const member = await call(base, admin, 'POST', `/v1/admin/workspaces/${ws.body.id}/members`, {
      email: 'pat@example.com',
      role: 'pilot',
      first_name: 'Pat',
    });
    expect([ws.status, key.status, member.status]).toEqual([201, 201, 201]);

    // Writes all along: each answered project is recorded with the moment it was answered.
    const answered: { id: string; at: number }[] = [];
    const sent: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const name = `Project ${n}`;
        sent.push(name);
        const created = await call(base, key.body.key, 'POST', '/v1/projects', {
          name,
          description: 'd',
          status: 'planned',
          start_date: '2026-12-01',
        });
        expect(created.status).toBe(201);
        answered.push({ id: created.body.id, at: Date.now() });
      }
    })();
    while (answered.length < 20) await new Promise((resolve) => setTimeout(resolve, 10));

    const target = join(tempDir('wos-backup-'), 'copy');
    const started = Date.now();
    const backup = await backUp(dataDir, target);
    const ended = Date.now();
    const acknowledgedBefore = answered.filter((p) => p.at < started).map((p) => p.id);
    expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: '' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    writing = false;
    await writer;
    expect(answered.filter((p) => p.at >= started && p.at <= ended).length).toBeGreaterThan(0);

    // Every store and key file, none of SQLite's side files, not the snapshot cache nor the lock.
    expect(readdirSync(target).sort()).toEqual([
      'admin-token',
      'dashboard.db',
      'events.db',
      'idempotency.db',
      'keys.db',
      'ledger-signing.key',
      'ledger.db',
      'operators.db',
      'read-models.db',
      'webhook-secrets.key',
      'webhooks.db',
    ]);
    for (const file of ['admin-token', 'webhook-secrets.key'])
      expect(readFileSync(join(target, file))).toEqual(readFileSync(join(dataDir, file)));
    expect(backup.stdout).toMatch(/^events\.db\t\d+ bytes\tsqlite online backup$/m);
    expect(await service.stop('SIGTERM')).toBe(0);

    // A service on the copy: the same token, key and data.
    const restored = await ServiceProcess.start({ DATA_DIR: target, ADMIN_TOKEN: '' });
    services.push(restored);
    const ids: string[] = [];
    for (let cursor: string | null = ''; cursor !== null;) {
      const page = await call(
        restored.baseUrl,
        key.body.key,
        'GET',
        `/v1/projects${cursor ? `?cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      ids.push(...page.body.projects.map((p: { id: string }) => p.id));
      cursor = page.body.cursor;
    }
    expect(ids).toEqual(expect.arrayContaining(acknowledgedBefore));
    expect(ids.length).toBeLessThanOrEqual(sent.length);
    const pat = await call(restored.baseUrl, key.body.key, 'GET', `/v1/team/${member.body.id}`);
    expect(pat.body).toMatchObject({ first_name: 'Pat', email: 'pat@example.com' });
    const verify = await call(restored.baseUrl, admin, 'POST', '/v1/admin/events/verify');
    expect(verify).toMatchObject({ status: 200, body: { differences: [] } });
  }, 120_000);

  it('refuses a target that is not empty, and changes nothing there', async () => {
    const dataDir = tempDir('wos-backup-data-');
    const target = tempDir('wos-backup-full-');
    const existing = join(target, 'events.db');
    writeFileSync(existing, 'older backup');
    const result = await backUp(dataDir, target);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Backup failed: ${target} is not empty: back up into a new directory\n`);
    expect(readFileSync(existing, 'utf8')).toBe('older backup');
  });
});
