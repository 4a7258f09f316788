#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { DeadLetter } from '@app/application'; // the admin API answers them as the port declares
import { dataDirOf } from './config';
import { backUpDataDir } from './backup';
import { adminTokenFile } from './data-dir';
import { runAudit } from './ledger/audit-cli';

/**
 * Operator CLI: the admin API of docs/operator-contract.md from a terminal. It talks to the running
 * service (so only one process ever writes the projections); the token comes from ADMIN_TOKEN or
 * DATA_DIR/admin-token, the address from --url or PORT. `backup` alone works on DATA_DIR itself.
 * Installed as the `workspace-ops` command (package.json `bin`); what it prints on stdout is the
 * command's answer alone, so an export can be redirected to a file (docs/operations.md).
 *
 *   npm run cli -- workspaces create --name Acme --plan enterprise [--project-limit 10]
 *   npm run cli -- workspaces update <workspaceId> [--plan pro] [--project-limit 5|null]
 *   npm run cli -- members add <workspaceId> --email ana@example.com --role pilot [--first-name Ana] ...
 *   npm run cli -- api-keys create <workspaceId> --name CI --scope full_access
 *   npm run cli -- api-keys deactivate <keyId>
 *   npm run cli -- workspaces list [--q text] | api-keys list --workspace <id> | members list --workspace <id> [--json]
 *   npm run cli -- operators create --name <name> --role <operator|auditor> | operators list | operators revoke <id>
 *   npm run cli -- dashboard-link --workspace <workspaceId> --member <memberId>
 *   npm run cli -- projections status | projections rebuild [name]
 *   npm run cli -- projections dead-letters [name] | projections retry|skip <name> <position>
 *   npm run cli -- events verify | events export (--workspace <id> | --stream <name> | --all)
 *   npm run cli -- audit verify --export <file> --head <file> [--head <file> ...] [--public-key <file>]
 *   npm run cli -- backup <directory>
 */

const USAGE = `Usage: workspace-ops <command> [options]   (from a checkout: npm run -s cli -- <command> [options])

  workspaces list [--q <text>]           workspaces with plan, limit and usage (names containing <text>)
  workspaces create --name <name> --plan <free|pro|enterprise> [--project-limit <n|null>]
  workspaces update <workspaceId> [--plan <plan>] [--project-limit <n|null>]
  members list --workspace <workspaceId>
  members add <workspaceId> --email <email> --role <role> [--first-name ..] [--last-name ..]
              [--title ..] [--phone-number ..] [--profile-picture <url>] [--status <active|invited|inactive>]
  members erase <memberId>               destroy the member's key: personal data reads as erased everywhere
  api-keys list --workspace <workspaceId>   id, name, scope, status, created, last used (never a secret)
  api-keys create <workspaceId> --name <name> --scope <read_only|full_access>
  api-keys deactivate <keyId>
  operators create --name <name> --role <operator|auditor>
                                         a named operator credential; its token is printed once
  operators list                         every operator credential (never a token)
  operators revoke <operatorId>          refused from the next request on
  dashboard-link --workspace <workspaceId> --member <memberId>
                                         a one-time sign-in link to the workspace dashboard for that
                                         member (printed alone on stdout; valid once, 15 minutes)
  projections status                     each projection's checkpoint and lag
  projections rebuild [name]             blue/green rebuild (all, in turn, without a name), with progress
  projections dead-letters [name]        events a projection parked because its projector threw on them
  projections retry <name> <position>    read the parked event again and project it (gone when it applies)
  projections skip <name> <position>     drop a dead letter without applying it
  events verify                          replay the store and report every read-model document that differs
  events export --workspace <id> | --stream <stream>   NDJSON of the events, for auditors
  events export --all                    the whole history with its ledger leaf data (NDJSON)
  audit verify --export <file> --head <file> [--head <file> ...] [--public-key <file>]
                                         check an export against saved ledger heads, offline
  backup <directory>                     copy DATA_DIR into a new directory while the service runs:
                                         SQLite's online backup of each store, and the key files

Global options: --url <base url> (default http://127.0.0.1:$PORT), --token <admin token or operator
credential> (default $ADMIN_TOKEN, else the token saved in $DATA_DIR/admin-token). The list commands
print a table, or the service's JSON with --json; --cursor <cursor> asks for the next page.
`;

const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  name: { type: 'string' },
  plan: { type: 'string' },
  'project-limit': { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  title: { type: 'string' },
  'phone-number': { type: 'string' },
  'profile-picture': { type: 'string' },
  status: { type: 'string' },
  scope: { type: 'string' },
  workspace: { type: 'string' },
  member: { type: 'string' },
  stream: { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  q: { type: 'string' },
  cursor: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = Partial<Record<keyof typeof OPTIONS, string | boolean>>;

class UsageError extends Error {}

function projectLimit(raw: string | boolean | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'null' || raw === 'unlimited') return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new UsageError('--project-limit must be a non-negative integer or null');
  return n;
}

function pick(values: Values, map: Record<string, keyof typeof OPTIONS>) {
  return Object.fromEntries(
    Object.entries(map).flatMap(([field, option]) => (values[option] === undefined ? [] : [[field, values[option]]])),
  );
}

function route(positionals: string[], values: Values): { method: string; path: string; body?: unknown } {
  const [group, action, id, second] = positionals;
  if (group === 'dashboard-link') {
    if (action !== undefined) throw new UsageError(`dashboard-link takes no positional arguments (got "${action}")`);
    if (typeof values.workspace !== 'string' || typeof values.member !== 'string')
      throw new UsageError('dashboard-link needs --workspace <workspaceId> and --member <memberId>');
    return {
      method: 'POST',
      path: `/workspaces/${encodeURIComponent(values.workspace)}/members/${encodeURIComponent(values.member)}/dashboard-links`,
    };
  }
  const needId = (what: string) => {
    if (!id) throw new UsageError(`${group} ${action} needs a ${what}`);
    return encodeURIComponent(id);
  };
  const needWorkspace = () => {
    if (typeof values.workspace !== 'string') throw new UsageError(`${group} list needs --workspace <workspaceId>`);
    return encodeURIComponent(values.workspace);
  };
  switch (`${group} ${action}`) {
    case 'workspaces list':
      return { method: 'GET', path: `/workspaces${queryOf({ q: values.q, cursor: values.cursor })}` };
    case 'api-keys list':
      return { method: 'GET', path: `/workspaces/${needWorkspace()}/api-keys${queryOf({ cursor: values.cursor })}` };
    case 'members list':
      return { method: 'GET', path: `/workspaces/${needWorkspace()}/members${queryOf({ cursor: values.cursor })}` };
    case 'operators create':
      return { method: 'POST', path: '/operators', body: pick(values, { name: 'name', role: 'role' }) };
    case 'operators list':
      return { method: 'GET', path: '/operators' };
    case 'operators revoke':
      return { method: 'POST', path: `/operators/${needId('operator credential id')}/revoke` };
    case 'workspaces create':
      return {
        method: 'POST',
        path: '/workspaces',
        body: { ...pick(values, { name: 'name', plan: 'plan' }), ...limitField(values) },
      };
    case 'workspaces update':
      return {
        method: 'PATCH',
        path: `/workspaces/${needId('workspace id')}`,
        body: { ...pick(values, { plan: 'plan' }), ...limitField(values) },
      };
    case 'members add':
      return {
        method: 'POST',
        path: `/workspaces/${needId('workspace id')}/members`,
        body: pick(values, {
          email: 'email',
          role: 'role',
          first_name: 'first-name',
          last_name: 'last-name',
          title: 'title',
          phone_number: 'phone-number',
          profile_picture: 'profile-picture',
          status: 'status',
        }),
      };
    case 'members erase':
      return { method: 'POST', path: `/members/${needId('member id')}/erase` };
    case 'api-keys create':
      return {
        method: 'POST',
        path: `/workspaces/${needId('workspace id')}/api-keys`,
        body: pick(values, { name: 'name', scope: 'scope' }),
      };
    case 'api-keys deactivate':
      return { method: 'POST', path: `/api-keys/${needId('key id')}/deactivate` };
    case 'projections status':
      return { method: 'GET', path: '/projections' };
    case 'projections rebuild':
      return { method: 'POST', path: '/projections/rebuild', body: id ? { name: id } : {} };
    case 'projections dead-letters':
      return { method: 'GET', path: `/projections/dead-letters${id ? `?projection=${encodeURIComponent(id)}` : ''}` };
    case 'projections retry':
    case 'projections skip': {
      if (!id || !second) throw new UsageError(`projections ${action} needs a projection name and a position`);
      return {
        method: 'POST',
        path: `/projections/dead-letters/${encodeURIComponent(id)}/${encodeURIComponent(second)}/${action}`,
      };
    }
    case 'events verify':
      return { method: 'POST', path: '/events/verify' };
    case 'events export': {
      if (values.all) {
        if (values.workspace || values.stream)
          throw new UsageError('events export --all takes no --workspace or --stream');
        return { method: 'GET', path: '/ledger/export' };
      }
      if (!values.workspace === !values.stream)
        throw new UsageError('events export needs exactly one of --workspace, --stream or --all');
      const query = values.workspace
        ? `workspace_id=${encodeURIComponent(String(values.workspace))}`
        : `stream=${encodeURIComponent(String(values.stream))}`;
      return { method: 'GET', path: `/events/export?${query}` };
    }
    default:
      throw new UsageError(`Unknown command: ${positionals.join(' ') || '(none)'}`);
  }
}

/** `?a=1&b=2` of the options given, or nothing. */
function queryOf(params: Record<string, string | boolean | undefined>): string {
  const given = Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string');
  return given.length === 0 ? '' : `?${new URLSearchParams(given).toString()}`;
}

function limitField(values: Values) {
  const limit = projectLimit(values['project-limit']);
  return limit === undefined ? {} : { project_limit: limit };
}

function adminToken(values: Values): string {
  if (typeof values.token === 'string') return values.token;
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = adminTokenFile(dataDirOf(process.env));
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new UsageError(
      `No admin token: set ADMIN_TOKEN, pass --token, or set DATA_DIR to the service's (no ${file}; the service makes it on its first start)`,
    );
  }
}

export async function runCli(argv: string[]): Promise<number> {
  if (argv[0] === 'audit') return runAudit(argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed as { values: Values; positionals: string[] };
  if (values.help || positionals.length === 0) {
    process.stdout.write(USAGE);
    return positionals.length === 0 && !values.help ? 2 : 0;
  }
  if (positionals[0] === 'backup') return backup(positionals);
  try {
    const request = route(positionals, values);
    const base = typeof values.url === 'string' ? values.url : `http://127.0.0.1:${process.env.PORT || 3000}`;
    const response = await fetch(`${base.replace(/\/$/, '')}/v1/admin${request.path}`, {
      method: request.method,
      headers: {
        authorization: `Bearer ${adminToken(values)}`,
        ...(request.body ? { 'content-type': 'application/json' } : {}),
      },
      body: request.body ? JSON.stringify(request.body) : undefined,
    });
    if (!response.ok) {
      const text = await response.text();
      if (response.status === 409 && /runs only on the projector/.test(text)) {
        // The easy mistake: the default URL is an API replica's port, not the projector's.
        process.stderr.write(
          `Refused by ${base}: ${messageOf(text)}\nNothing was changed. Run it against the projector: npm run cli -- ${positionals.join(' ')} --url http://<projector>:<port>\n`,
        );
        return 1;
      }
      process.stderr.write(`${text || `HTTP ${response.status}`}\n`);
      return 1;
    }
    if (positionals[0] === 'dashboard-link') {
      // The link alone on stdout (to open or hand on); when it stops working on stderr.
      const link = JSON.parse(await response.text()) as { url: string; expires_at: number };
      process.stdout.write(`${link.url}\n`);
      process.stderr.write(`Valid once, until ${new Date(link.expires_at).toISOString()}\n`);
      return 0;
    }
    const command = `${positionals[0]} ${positionals[1]}`;
    if (command === 'events export') {
      // Streamed through as it comes: an export can be large.
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) process.stdout.write(chunk);
      return 0;
    }
    const result = JSON.parse(await response.text());
    if (command === 'projections status') return printStatus(result);
    if (command === 'projections dead-letters') return printDeadLetters(result);
    if (command === 'projections retry') {
      const d = result.dead_letter as DeadLetter;
      process.stdout.write(
        `${d.projection} at ${d.position} (${d.eventType}): ${result.outcome}${result.outcome === 'failed' ? ` again (${d.attempts} attempts): ${d.error}` : ''}\n`,
      );
      return result.outcome === 'applied' ? 0 : 1;
    }
    const table = values.json ? undefined : TABLES[command];
    if (table) return printList(result, table);
    if (command === 'projections rebuild') return followRebuild(base, adminToken(values), result.projections);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (command === 'events verify') return result.differences.length === 0 ? 0 : 1;
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    process.stderr.write(`Could not reach the service: ${(error as Error).message}\n`);
    return 1;
  }
}

/** `backup <directory>`: DATA_DIR (of this environment) into a new directory; a line per file on stdout. */
async function backup(positionals: string[]): Promise<number> {
  const [, target, extra] = positionals;
  if (!target || extra !== undefined) {
    process.stderr.write(`backup needs one directory to back up into\n\n${USAGE}`);
    return 2;
  }
  const dataDir = dataDirOf(process.env);
  try {
    const files = await backUpDataDir(dataDir, resolve(target));
    for (const file of files) process.stdout.write(`${file.name}\t${file.bytes} bytes\t${file.how}\n`);
    process.stdout.write(`Backed up ${dataDir} into ${resolve(target)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`Backup failed: ${(error as Error).message}\n`);
    return 1;
  }
}

interface Status {
  name: string;
  checkpoint: number;
  head: number;
  lag: number;
  lagCapped?: boolean;
  rebuild: {
    state: string;
    processed: number;
    position: number;
    head: number;
    eventsPerSecond: number;
    etaSeconds: number | null;
    error: string | null;
  } | null;
}

function messageOf(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    return typeof message === 'string' ? message : text;
  } catch {
    return text;
  }
}

function printStatus(result: { role?: string; projections: Status[] }): number {
  if (result.role)
    process.stdout.write(
      `role: ${result.role}${result.role === 'replica' ? " (the projector's stored checkpoints)" : ''}\n`,
    );
  const rows = result.projections.map((p) => [
    p.name,
    String(p.checkpoint),
    String(p.head),
    `${p.lag}${p.lagCapped ? '+' : ''}`,
    p.rebuild?.state ?? '',
  ]);
  const header = ['projection', 'checkpoint', 'head', 'lag', 'last rebuild'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((c, i) => c.padEnd(widths[i])).join('  ')}\n`);
  return 0;
}

const when = (ms: unknown) => (typeof ms === 'number' ? new Date(ms).toISOString() : '-');
const text = (value: unknown) => (value === null || value === undefined ? '-' : String(value));

/** How each list command prints its answer: the list's field, then each column's header and cell. */
const TABLES: Record<string, { field: string; columns: [string, (row: Record<string, unknown>) => string][] }> = {
  'workspaces list': {
    field: 'workspaces',
    columns: [
      ['id', (w) => text(w.id)],
      ['name', (w) => text(w.name)],
      ['plan', (w) => text(w.plan)],
      ['projects', (w) => `${text(w.projects_used)}/${w.project_limit === null ? 'unlimited' : text(w.project_limit)}`],
      ['api keys', (w) => `${text(w.active_api_keys)} active of ${text(w.api_keys)}`],
      ['members', (w) => text(w.members)],
      ['created', (w) => when(w.created)],
    ],
  },
  'api-keys list': {
    field: 'api_keys',
    columns: [
      ['id', (k) => text(k.id)],
      ['name', (k) => text(k.name)],
      ['scope', (k) => text(k.scope)],
      ['status', (k) => text(k.status)],
      ['created', (k) => when(k.created)],
      ['last used', (k) => when(k.last_used_at)],
    ],
  },
  'members list': {
    field: 'members',
    columns: [
      ['id', (m) => text(m.id)],
      ['email', (m) => text(m.email)],
      ['name', (m) => [m.first_name, m.last_name].filter((n) => typeof n === 'string').join(' ') || '-'],
      ['role', (m) => text(m.role)],
      ['status', (m) => text(m.status)],
      ['added', (m) => when(m.created)],
    ],
  },
  'operators list': {
    field: 'operators',
    columns: [
      ['id', (o) => text(o.id)],
      ['name', (o) => text(o.name)],
      ['role', (o) => text(o.role)],
      ['status', (o) => text(o.status)],
      ['created', (o) => when(o.created)],
      ['revoked', (o) => when(o.revoked_at)],
    ],
  },
};

/** A list as a table on stdout; where the next page starts on stderr. */
function printList(result: Record<string, unknown>, table: (typeof TABLES)[string]): number {
  const items = result[table.field] as Record<string, unknown>[];
  const header = table.columns.map(([name]) => name);
  const rows = items.map((item) => table.columns.map(([, cell]) => cell(item)));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows])
    process.stdout.write(
      `${row
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd()}\n`,
    );
  if (typeof result.cursor === 'string') process.stderr.write(`More: add --cursor ${result.cursor}\n`);
  return 0;
}

function printDeadLetters(result: { dead_letters: DeadLetter[] }): number {
  if (result.dead_letters.length === 0) {
    process.stdout.write('No dead letters\n');
    return 0;
  }
  const rows = result.dead_letters.map((d) => [
    d.projection,
    String(d.position),
    d.eventType,
    d.streamId,
    String(d.attempts),
    new Date(d.firstFailedAt).toISOString(),
    d.error,
  ]);
  const header = ['projection', 'position', 'type', 'stream', 'attempts', 'first failed', 'error'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows])
    process.stdout.write(
      `${row
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd()}\n`,
    );
  return 0;
}

/** Polls the service and draws one progress bar per projection: events/s and ETA. */
async function followRebuild(base: string, token: string, names: string[]): Promise<number> {
  const tty = process.stdout.isTTY;
  for (const name of names) {
    let last = '';
    for (;;) {
      const response = await fetch(`${base.replace(/\/$/, '')}/v1/admin/projections`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const status = ((await response.json()) as { projections: Status[] }).projections.find((p) => p.name === name);
      const rebuild = status?.rebuild;
      if (rebuild) {
        const fraction =
          rebuild.head > 0 ? Math.min(1, rebuild.position / rebuild.head) : rebuild.state === 'done' ? 1 : 0;
        const width = 30;
        const filled = Math.round(fraction * width);
        const eta = rebuild.etaSeconds === null ? '?' : `${rebuild.etaSeconds}s`;
        const line = `${name.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${rebuild.processed} events  ${rebuild.eventsPerSecond} ev/s  ETA ${eta}`;
        if (tty) process.stdout.write(`\r${line}`);
        else if (line !== last && (rebuild.state !== 'running' || last === '')) process.stdout.write(`${line}\n`);
        last = line;
        if (rebuild.state === 'done') break;
        if (rebuild.state === 'failed') {
          process.stderr.write(`\n${name}: rebuild failed: ${rebuild.error}\n`);
          return 1;
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    if (tty) process.stdout.write('\n');
  }
  process.stdout.write(`Rebuilt and swapped in: ${names.join(', ')}\n`);
  return 0;
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
