import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../support/service-process';

/**
 * The operator CLI as docs/operations.md runs it, on the built service as a real process whose
 * admin token it generated in DATA_DIR: `npm run -s cli --`, the `workspace-ops` command, and
 * `node dist/apps/api/src/cli.js` with the environment a service container has (DATA_DIR, PORT).
 */

const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'dist/apps/api/src/cli.js');

/** Runs `command` in a shell at the checkout's root; resolves with its exit code and output. */
function shell(command: string, env: Record<string, string>) {
  const clean = { ...process.env };
  delete clean.ADMIN_TOKEN;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'sh',
      ['-c', command],
      { cwd: ROOT, env: { ...clean, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Every line of `text` is one JSON object (NDJSON); answers them. */
function ndjson(text: string): Record<string, unknown>[] {
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(parsed).toEqual(expect.objectContaining({ id: expect.any(String), stream: expect.any(String) }));
      return parsed;
    });
}

describe('The operator CLI on a running service', () => {
  let dir: string;
  let service: ServiceProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-cli-'));
    // No ADMIN_TOKEN: the service makes one in DATA_DIR, where the CLI finds it.
    service = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN: '' });
    env = { DATA_DIR: dir, PORT: new URL(service.baseUrl).port };
  }, 60_000);

  afterAll(async () => {
    await service?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports pure NDJSON through `npm run -s cli`, the workspace-ops command and node in a container', async () => {
    const created = await shell(
      `npm run -s cli -- workspaces create --name "Export Co" --plan enterprise > ${dir}/ws.json`,
      env,
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const workspaceId = (JSON.parse(readFileSync(join(dir, 'ws.json'), 'utf8')) as { id: string }).id;
    const member = await shell(
      `npx --no-install workspace-ops members add ${workspaceId} --email pat@example.com --role pilot --first-name Pat`,
      env,
    );
    expect(member.code).toBe(0);

    const exported = await shell(
      `npm run -s cli -- events export --workspace ${workspaceId} > ${dir}/export.ndjson`,
      env,
    );
    expect(exported).toMatchObject({ code: 0, stderr: '' });
    const viaNpm = readFileSync(join(dir, 'export.ndjson'), 'utf8');
    const events = ndjson(viaNpm);
    expect(events.map((event) => event.type)).toEqual(['workspace.created', 'workspace.member_added']);

    const viaBin = await shell(`npx --no-install workspace-ops events export --workspace ${workspaceId}`, env);
    expect(viaBin.code).toBe(0);
    expect(viaBin.stdout).toBe(viaNpm);
    // A service container has DATA_DIR and PORT set and the built CLI beside the service.
    const inContainer = await shell(`node ${CLI} events export --workspace ${workspaceId}`, env);
    expect(inContainer.stdout).toBe(viaNpm);
  }, 60_000);

  it('mints a dashboard sign-in link: the link alone on stdout, opening the sign-in page of this service', async () => {
    const created = await shell(`node ${CLI} workspaces create --name "Link Co" --plan pro`, env);
    const workspaceId = (JSON.parse(created.stdout) as { id: string }).id;
    const added = await shell(`node ${CLI} members add ${workspaceId} --email rita@example.com --role root`, env);
    const memberId = (JSON.parse(added.stdout) as { id: string }).id;

    const minted = await shell(`node ${CLI} dashboard-link --workspace ${workspaceId} --member ${memberId}`, env);
    expect(minted.code).toBe(0);
    expect(minted.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/sign-in\?token=[A-Za-z0-9_-]{43}\n$/);
    expect(minted.stderr).toMatch(/^Valid once, until \d{4}-\d\d-\d\dT/);
    const page = await fetch(minted.stdout.trim());
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Sign in');

    const unknown = await shell(`node ${CLI} dashboard-link --workspace ${workspaceId} --member usr_nobody`, env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr)).toEqual({ message: 'User not found' });
    const incomplete = await shell(`node ${CLI} dashboard-link --workspace ${workspaceId}`, env);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toContain('dashboard-link needs --workspace <workspaceId> and --member <memberId>');
  }, 60_000);

  it('names where the admin token is looked for when it finds none', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'wos-cli-empty-'));
    try {
      const result = await shell(`node ${CLI} projections status`, { ...env, DATA_DIR: elsewhere });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`No admin token: set ADMIN_TOKEN, pass --token, or set DATA_DIR`);
      expect(result.stderr).toContain(join(elsewhere, 'admin-token'));
      expect(readdirSync(elsewhere)).toEqual([]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
