import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../support/service-process';

/**
 * An untouched history of 100,000 events verifies: seeded straight into events.db through the
 * SQLite adapter (bench/seed-events.js), logged by the service at its start, exported through the
 * CLI and checked by `audit verify` as its own process.
 */

const ROOT = join(__dirname, '../..');
const TOKEN = 'adm_ledger_scale_token';

function shell(command: string, env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('sh', ['-c', command], { cwd: ROOT, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('The ledger over 100,000 events', () => {
  let dir: string;
  let service: ServiceProcess | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-ledger-scale-'));
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-needed.js')], { stdio: 'pipe' });
  });

  afterAll(async () => {
    await service?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies an untouched history end to end', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { seed } = require('../../bench/seed-events') as {
      seed(dir: string, plan: { name: string; projects: number; updatesPerProject: number }[]): Promise<unknown>;
    };
    await seed(dir, [{ name: 'scale', projects: 10_000, updatesPerProject: 9 }]);
    service = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN: TOKEN, READ_YOUR_WRITES_TIMEOUT_MS: '120000' });
    const env = { DATA_DIR: dir, PORT: new URL(service.baseUrl).port, ADMIN_TOKEN: TOKEN };

    const signed = await fetch(`${service.baseUrl}/v1/admin/ledger/heads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(signed.status).toBe(201);
    const head = (await signed.json()) as { size: number };
    expect(head.size).toBeGreaterThanOrEqual(100_000);
    writeFileSync(join(dir, 'head.json'), JSON.stringify(head));
    const key = await fetch(`${service.baseUrl}/v1/admin/ledger/public-key`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    writeFileSync(join(dir, 'key.json'), await key.text());

    const exported = await shell(`npm run -s cli -- events export --all > ${join(dir, 'export.ndjson')}`, env);
    expect(exported).toMatchObject({ code: 0, stderr: '' });
    const verified = await shell(
      `npm run -s cli -- audit verify --export ${join(dir, 'export.ndjson')} --head ${join(dir, 'head.json')} --public-key ${join(dir, 'key.json')}`,
      env,
    );
    expect(verified.stdout).toContain(`export: ${head.size} events`);
    expect(verified.code).toBe(0);
  }, 300_000);
});
