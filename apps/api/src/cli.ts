import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ADMIN_TOKEN_FILE } from './config';

/**
 * Operator CLI: the admin API of ARCHITECTURE.md from a terminal. It talks to the running
 * service (so only one process ever writes the projections); the token comes from ADMIN_TOKEN or
 * DATA_DIR/admin-token, the address from --url or PORT.
 *
 *   npm run cli -- workspaces create --name Acme --plan enterprise [--project-limit 10]
 *   npm run cli -- workspaces update <workspaceId> [--plan pro] [--project-limit 5|null]
 *   npm run cli -- members add <workspaceId> --email ana@example.com --role pilot [--first-name Ana] ...
 *   npm run cli -- api-keys create <workspaceId> --name CI --scope full_access
 *   npm run cli -- api-keys deactivate <keyId>
 */

const USAGE = `Usage: npm run cli -- <command> [options]

  workspaces create --name <name> --plan <free|pro|enterprise> [--project-limit <n|null>]
  workspaces update <workspaceId> [--plan <plan>] [--project-limit <n|null>]
  members add <workspaceId> --email <email> --role <role> [--first-name ..] [--last-name ..]
              [--title ..] [--phone-number ..] [--profile-picture <url>] [--status <active|invited|inactive>]
  api-keys create <workspaceId> --name <name> --scope <read_only|full_access>
  api-keys deactivate <keyId>

Global options: --url <base url> (default http://127.0.0.1:$PORT), --token <admin token>
(default $ADMIN_TOKEN, else the token saved in $DATA_DIR/admin-token).
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
  return Object.fromEntries(Object.entries(map).flatMap(([field, option]) => (values[option] === undefined ? [] : [[field, values[option]]])));
}

function route(positionals: string[], values: Values): { method: string; path: string; body?: unknown } {
  const [group, action, id] = positionals;
  const needId = (what: string) => {
    if (!id) throw new UsageError(`${group} ${action} needs a ${what}`);
    return encodeURIComponent(id);
  };
  switch (`${group} ${action}`) {
    case 'workspaces create':
      return { method: 'POST', path: '/workspaces', body: { ...pick(values, { name: 'name', plan: 'plan' }), ...limitField(values) } };
    case 'workspaces update':
      return { method: 'PATCH', path: `/workspaces/${needId('workspace id')}`, body: { ...pick(values, { plan: 'plan' }), ...limitField(values) } };
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
    case 'api-keys create':
      return { method: 'POST', path: `/workspaces/${needId('workspace id')}/api-keys`, body: pick(values, { name: 'name', scope: 'scope' }) };
    case 'api-keys deactivate':
      return { method: 'POST', path: `/api-keys/${needId('key id')}/deactivate` };
    default:
      throw new UsageError(`Unknown command: ${positionals.join(' ') || '(none)'}`);
  }
}

function limitField(values: Values) {
  const limit = projectLimit(values['project-limit']);
  return limit === undefined ? {} : { project_limit: limit };
}

function adminToken(values: Values): string {
  if (typeof values.token === 'string') return values.token;
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = join(resolve(process.env.DATA_DIR || './data'), ADMIN_TOKEN_FILE);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new UsageError(`No admin token: set ADMIN_TOKEN, pass --token, or start the service once to create ${file}`);
  }
}

export async function runCli(argv: string[]): Promise<number> {
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
    const text = await response.text();
    (response.ok ? process.stdout : process.stderr).write(`${text || `HTTP ${response.status}`}\n`);
    return response.ok ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    process.stderr.write(`Could not reach the service: ${(error as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
