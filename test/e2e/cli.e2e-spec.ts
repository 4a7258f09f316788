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

  it('lists workspaces, keys and members as tables or JSON, and manages operator credentials', async () => {
    const created = await shell(
      `node ${CLI} workspaces create --name "Table Co" --plan enterprise --project-limit 3`,
      env,
    );
    const workspaceId = (JSON.parse(created.stdout) as { id: string }).id;
    await shell(`node ${CLI} api-keys create ${workspaceId} --name Deploys --scope read_only`, env);
    await shell(`node ${CLI} members add ${workspaceId} --email tab@example.com --role pilot --first-name Tab`, env);

    const workspaces = await shell(`node ${CLI} workspaces list --q "table co"`, env);
    expect(workspaces.code).toBe(0);
    const [header, row, extra] = workspaces.stdout.split('\n');
    expect(header.split(/\s{2,}/)).toEqual(['id', 'name', 'plan', 'projects', 'api keys', 'members', 'created']);
    expect(row.split(/\s{2,}/).slice(0, 6)).toEqual([
      workspaceId,
      'Table Co',
      'enterprise',
      '0/3',
      '1 active of 1',
      '1',
    ]);
    expect(extra).toBe('');
    const json = await shell(`node ${CLI} workspaces list --q "table co" --json`, env);
    expect(JSON.parse(json.stdout)).toMatchObject({ workspaces: [{ id: workspaceId, name: 'Table Co' }], count: 1 });

    const keys = await shell(`node ${CLI} api-keys list --workspace ${workspaceId}`, env);
    expect(keys.stdout).toMatch(
      /^id +name +scope +status +created +last used\nkey_\S+ +Deploys +read_only +active +\S+ +-\n$/,
    );
    const members = await shell(`node ${CLI} members list --workspace ${workspaceId}`, env);
    expect(members.stdout).toContain('tab@example.com  Tab   pilot');
    expect((await shell(`node ${CLI} members list`, env)).stderr).toContain('members list needs --workspace');

    const operator = await shell(`node ${CLI} operators create --name Auditor --role auditor`, env);
    const credential = JSON.parse(operator.stdout) as { id: string; token: string };
    const listed = await shell(`node ${CLI} operators list`, env);
    expect(listed.stdout).toMatch(new RegExp(`${credential.id} +Auditor +auditor +active`));
    expect(listed.stdout).not.toContain(credential.token);
    const asAuditor = await shell(`node ${CLI} workspaces list --token ${credential.token} --json`, env);
    expect(asAuditor.code).toBe(0);
    const refused = await shell(`node ${CLI} workspaces create --name No --plan free --token ${credential.token}`, env);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr)).toMatchObject({ code_name: 'operator_role_required' });
    expect((await shell(`node ${CLI} operators revoke ${credential.id}`, env)).code).toBe(0);
    expect((await shell(`node ${CLI} workspaces list --token ${credential.token}`, env)).code).toBe(1);
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
