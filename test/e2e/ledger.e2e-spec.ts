import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '../../libs/infrastructure/src/sqlite/sqlite-driver';
import { ServiceProcess } from '../support/service-process';

/**
 * The ledger end to end, as an auditor uses it (docs/ledger.md): heads signed by the running
 * service, the history exported through the CLI, and `audit verify` run as its own process with
 * the service's files only. The tampering is done as an attacker with write access to
 * DATA_DIR/events.db would do it: with SQLite directly, under the running service.
 */

const ROOT = join(__dirname, '../..');
const TOKEN = 'adm_ledger_e2e_token';

function shell(command: string, env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'sh',
      ['-c', command],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

type Row = { position: number; data: string };

describe('The ledger on a running service, verified offline by the CLI', () => {
  let dir: string;
  let service: ServiceProcess;
  let env: Record<string, string>;
  let workspaceId: string;
  const memberIds: string[] = [];

  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${service.baseUrl}/v1/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const cli = (args: string) => shell(`npm run -s cli -- ${args}`, env);
  const saveHead = async (name: string) => {
    const signed = await admin('POST', '/ledger/heads');
    expect(signed.status).toBe(201);
    writeFileSync(join(dir, name), JSON.stringify(signed.body));
    return signed.body as { size: number; root: string };
  };
  const exportAll = async (name: string) => {
    const exported = await cli(`events export --all > ${join(dir, name)}`);
    expect(exported).toMatchObject({ code: 0, stderr: '' });
    return join(dir, name);
  };
  const verify = (exportFile: string, heads: string[], withKey = true) =>
    cli(
      `audit verify --export ${exportFile} ${heads.map((h) => `--head ${join(dir, h)}`).join(' ')}${withKey ? ` --public-key ${join(dir, 'key.json')}` : ''}`,
    );
  /** Runs `change` on events.db opened directly, as an attacker with file access would. */
  const tamper = <T>(change: (db: Database.Database) => T): T => {
    const db = new Database(join(dir, 'events.db'));
    try {
      return change(db);
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-ledger-'));
    service = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN: TOKEN });
    env = { DATA_DIR: dir, PORT: new URL(service.baseUrl).port, ADMIN_TOKEN: TOKEN };
    workspaceId = (await admin('POST', '/workspaces', { name: 'Ledger Co', plan: 'enterprise' })).body.id;
    for (const name of ['Ana', 'Ben', 'Cy', 'Dee', 'Eve']) {
      const added = await admin('POST', `/workspaces/${workspaceId}/members`, {
        email: `${name.toLowerCase()}@example.com`,
        role: 'pilot',
        first_name: name,
      });
      memberIds.push(added.body.id);
    }
    const key = await admin('GET', '/ledger/public-key');
    expect(key.body).toEqual({ key_id: expect.stringMatching(/^[0-9a-f]{16}$/), public_key: expect.any(String) });
    expect(Buffer.from(key.body.public_key, 'base64')).toHaveLength(32);
    writeFileSync(join(dir, 'key.json'), JSON.stringify(key.body));
  }, 120_000);

  afterAll(async () => {
    await service?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs heads covering every event written before, lists them newest first, and an untouched history verifies', async () => {
    const head = await saveHead('head-1.json');
    expect(head.size).toBe(6); // workspace.created and five member_added
    const listed = await admin('GET', '/ledger/heads');
    expect(listed.body).toMatchObject({ count: 1, cursor: null, heads: [head] });

    const file = await exportAll('export-1.ndjson');
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ ledger_export: 1, ledger_size: 6 });
    expect(lines.slice(1).map((l) => l.leaf_index)).toEqual([0, 1, 2, 3, 4, 5]);
    // Sealed personal data is exported (and hashed) as its ciphertext.
    expect(readFileSync(file, 'utf8')).not.toContain('ana@example.com');

    const verified = await verify(file, ['head-1.json']);
    expect(verified).toMatchObject({ code: 0 });
    expect(verified.stdout).toContain('verified');
    // Taken with the operator contract's own command, npm's script banner and all.
    const throughNpm = join(dir, 'export-npm.ndjson');
    expect(await shell(`npm run cli -- events export --all > ${throughNpm}`, env)).toMatchObject({ code: 0 });
    expect(readFileSync(throughNpm, 'utf8')).toMatch(/^\n?> /);
    expect(await verify(throughNpm, ['head-1.json'])).toMatchObject({ code: 0 });
    const selfConsistent = await verify(file, ['head-1.json'], false);
    expect(selfConsistent.code).toBe(0);
    expect(selfConsistent.stdout).toContain('public key inside the export');
  }, 60_000);

  it('answers proofs through the operator API, refuses bad input with 400, and leaves signing to the projector', async () => {
    const inclusion = await admin('GET', '/ledger/proofs/inclusion?event_id=nope');
    expect(inclusion.status).toBe(404);
    const first = await admin('GET', '/ledger/proofs/inclusion?position=1&size=6');
    expect(first).toMatchObject({ status: 200, body: { leaf_index: 0, position: 1, size: 6 } });
    expect(first.body.audit_path).toHaveLength(3);
    for (const bad of ['position=0', 'position=x', 'position=1&event_id=a', '', 'position=1&size=99'])
      expect((await admin('GET', `/ledger/proofs/inclusion?${bad}`)).status).toBe(400);
    const consistency = await admin('GET', '/ledger/proofs/consistency?first=3&second=6');
    expect(consistency).toMatchObject({ status: 200, body: { first: 3, second: 6 } });
    expect((await admin('GET', '/ledger/proofs/consistency')).body).toMatchObject({ first: 6 });
    expect((await admin('GET', '/ledger/proofs/consistency?first=7&second=6')).status).toBe(400);
    expect((await admin('GET', '/ledger/heads?cursor=bogus')).status).toBe(400);

    const replica = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN: TOKEN, PROJECTIONS: 'external' });
    try {
      const headers = { authorization: `Bearer ${TOKEN}` };
      const refused = await fetch(`${replica.baseUrl}/v1/admin/ledger/heads`, { method: 'POST', headers });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { message: string }).message).toContain('runs only on the projector');
      const listed = await fetch(`${replica.baseUrl}/v1/admin/ledger/heads`, { headers });
      expect(((await listed.json()) as { count: number }).count).toBe(1);
      const key = await fetch(`${replica.baseUrl}/v1/admin/ledger/public-key`, { headers });
      expect(await key.json()).toEqual(JSON.parse(readFileSync(join(dir, 'key.json'), 'utf8')));
    } finally {
      await replica.stop('SIGTERM');
    }
  }, 90_000);

  it('rejects a head signed by another key, or whose signature was changed', async () => {
    const file = await exportAll('export-sig.ndjson');
    const head = JSON.parse(readFileSync(join(dir, 'head-1.json'), 'utf8'));
    const sig = Buffer.from(head.signature, 'base64');
    sig[0] ^= 1;
    writeFileSync(join(dir, 'head-bad-sig.json'), JSON.stringify({ ...head, signature: sig.toString('base64') }));
    const bad = await verify(file, ['head-bad-sig.json']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('the signature does not verify');
  }, 60_000);

  it('fails and names the position of an event whose stored data lost one byte of integrity', async () => {
    const row = tamper((db) =>
      db
        .prepare<[], Row>("SELECT position, data FROM events WHERE type = 'workspace.member_added' LIMIT 1 OFFSET 2")
        .get(),
    )!;
    const at = row.data.indexOf('pilot');
    expect(at).toBeGreaterThan(0);
    const changed = `${row.data.slice(0, at)}Pilot${row.data.slice(at + 5)}`; // one byte: p -> P
    tamper((db) => db.prepare('UPDATE events SET data = ? WHERE position = ?').run(changed, row.position));
    try {
      const file = await exportAll('export-byte.ndjson');
      const failed = await verify(file, ['head-1.json']);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain(`first event that does not match: position ${row.position}`);
      const check = await admin('POST', '/ledger/verify');
      expect(check.body).toMatchObject({ matches: false, first_mismatch_position: row.position });
    } finally {
      tamper((db) => db.prepare('UPDATE events SET data = ? WHERE position = ?').run(row.data, row.position));
    }
    expect((await verify(await exportAll('export-restored.ndjson'), ['head-1.json'])).code).toBe(0);
  }, 60_000);

  it('fails against a head saved earlier when two events are swapped', async () => {
    const [a, b] = tamper((db) =>
      db.prepare<[], { position: number }>('SELECT position FROM events ORDER BY position LIMIT 2 OFFSET 2').all(),
    );
    const swap = (db: Database.Database) =>
      db.transaction(() => {
        db.prepare('UPDATE events SET position = -1 WHERE position = ?').run(a.position);
        db.prepare('UPDATE events SET position = ? WHERE position = ?').run(a.position, b.position);
        db.prepare('UPDATE events SET position = ? WHERE position = -1').run(b.position);
      })();
    tamper(swap);
    try {
      const failed = await verify(await exportAll('export-swap.ndjson'), ['head-1.json']);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/head .*head-1\.json \(size 6\): root .* differs/);
      expect(failed.stdout).toContain(`first event that does not match: position ${a.position}`);
    } finally {
      tamper(swap);
    }
  }, 60_000);

  it('keeps every proof valid after a member is erased, while the member reads as erased', async () => {
    const erased = await cli(`members erase ${memberIds[0]}`);
    expect(erased.code).toBe(0);
    const keyed = await admin('POST', `/workspaces/${workspaceId}/api-keys`, { name: 'audit', scope: 'read_only' });
    const member = await fetch(`${service.baseUrl}/v1/team/${memberIds[0]}`, {
      headers: { authorization: `Bearer ${keyed.body.key}` },
    });
    expect(await member.json()).toMatchObject({ email: '[erased]', first_name: '[erased]' });

    await saveHead('head-2.json');
    const file = await exportAll('export-erased.ndjson');
    // The key's creation is exported by its data's digest alone: no credential leaves.
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"type":"workspace.api_key_created"');
    expect(text).not.toContain('key_hash');
    const stored = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { stored_data?: string })
      .filter((l) => l.stored_data !== undefined)
      .map((l) => Buffer.from(l.stored_data!, 'base64').toString('utf8'));
    expect(stored.length).toBeGreaterThan(5);
    expect(stored.filter((data) => data.includes('key_hash'))).toEqual([]);
    const verified = await verify(file, ['head-1.json', 'head-2.json']);
    expect(verified.stdout).toContain('verified');
    expect(verified.code).toBe(0);
  }, 60_000);

  it('names a pair of heads that are not consistent when an event is deleted and the log rebuilt over what is left', async () => {
    const victim = tamper((db) =>
      db.prepare<[], Record<string, unknown>>('SELECT * FROM events ORDER BY position LIMIT 1 OFFSET 3').get(),
    )!;
    tamper((db) => db.prepare('DELETE FROM events WHERE position = ?').run(victim.position));
    const rebuilt = await admin('POST', '/ledger/rebuild');
    expect(rebuilt.status).toBe(200);
    await saveHead('head-3.json');
    const file = await exportAll('export-deleted.ndjson');
    const failed = await verify(file, ['head-1.json', 'head-3.json']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/heads .*head-1\.json \(size 6\) and .*head-3\.json \(size \d+\) are not consistent/);
    const alone = await verify(file, ['head-3.json']);
    expect(alone.code).toBe(0); // the rebuilt head only vouches for what is left: why heads are kept elsewhere
  }, 60_000);
});

describe('The ledger after the projector is killed (kill -9) mid-stream', () => {
  let dir: string;
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    await service?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('continues from its stored checkpoint at the next start: every event once, in order, matching the store', async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-ledger-kill-'));
    const call = (base: string, method: string, path: string, body?: unknown) =>
      fetch(`${base}/v1/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    service = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN: TOKEN });
    const base = service.baseUrl;
    const writes = Array.from({ length: 200 }, (_, i) =>
      call(base, 'POST', '/workspaces', { name: `Kill ${i}`, plan: 'pro' }).catch(() => undefined),
    );
    await new Promise((r) => setTimeout(r, 150));
    await service.stop('SIGKILL');
    await Promise.all(writes);

    service = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN: TOKEN });
    const head = (await (await call(service.baseUrl, 'POST', '/ledger/heads')).json()) as { size: number };
    const events = new Database(join(dir, 'events.db'), { readonly: true });
    const stored = (events.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    events.close();
    expect(head.size).toBe(stored);
    const verified = (await (await call(service.baseUrl, 'POST', '/ledger/verify')).json()) as { matches: boolean };
    expect(verified.matches).toBe(true);
  }, 120_000);
});
