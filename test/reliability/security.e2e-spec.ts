import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyAddress } from '@app/domain/webhooks/target-address';
import { NEVER_WRITABLE } from './fuzz-arbitraries';
import { plusDays, today } from '../support/dates';
import { HttpsReceiver } from '../support/https-receiver';
import { RawResponse } from '../support/raw-http';
import { reliabilityProfile, UNLIMITED_RATE } from '../support/reliability-profile';
import { fillPath, RouteInfo, routeInventory, WRITE_METHODS } from '../support/route-inventory';
import { SecretRegistry } from '../support/secret-scan';
import { ServiceClient, Tenant } from '../support/service-client';
import type { ServiceProcess } from '../support/service-process';
import { startServiceProcess } from '../support/service-start';

/**
 * Security against the OWASP API Security Top 10 (2023), over the built service as a process
 * (docs/reliability.md). Routes come from the controllers' own metadata, so a route added
 * later is checked too, or the suite fails asking for a fixture for its parameter.
 *
 * - API1 broken object level authorization: every id-bearing route, called with another
 *   workspace's key on this workspace's ids, answers exactly what it answers for an unknown id
 *   (status, body, headers that matter), and changes nothing.
 * - API2/API5 broken authentication / function level authorization: read_only keys are refused
 *   every write route; API keys are refused every operator route; the admin token is no API key.
 * - API3 broken object property level authorization: writes refuse properties a client may not
 *   set (mass assignment); reads show exactly the API reference's fields, never key hashes, secrets after
 *   creation, or internal fields; nothing of another workspace ever appears in a response.
 * - API4 unrestricted resource consumption: no list returns more than a page of 50, whatever the
 *   query asks.
 * - API7 SSRF: webhook targets on loopback, private, link-local, metadata, IPv6 and IPv4-mapped
 *   addresses, names resolving to such addresses, and redirects to internal hosts are refused.
 * - API8 misconfiguration: no stack traces or framework banners in any response.
 * - And no credential issued during the run appears in any log line of either process.
 */

const profile = reliabilityProfile();
const NOT_PUBLIC = 'url must not point to a private, loopback, link-local or otherwise internal address';

const SPEC_FIELDS = {
  project: ['archived', 'created', 'created_by', 'description', 'end_date', 'external_id', 'id', 'laanc_number', 'name', 'start_date', 'status', 'updated'],
  projectCreator: ['email', 'first_name', 'id', 'last_name', 'profile_picture'],
  job: [
    'capture_types', 'created', 'description', 'end_date', 'external_id', 'flights_per_occurrence', 'id', 'inspection_notes', 'job_pattern', 'latitude',
    'longitude', 'name', 'priority', 'project_id', 'recurring_frequency', 'recurring_interval', 'selected_days_of_week', 'start_date', 'status', 'type',
    'updated', 'week_of_month', 'weeks_of_month',
  ],
  jobType: ['icon', 'id', 'is_predefined', 'name'],
  memberListed: ['created', 'email', 'first_name', 'id', 'last_name', 'phone_number', 'profile_picture', 'role', 'status', 'title', 'updated'],
  member: ['created', 'email', 'first_name', 'id', 'last_name', 'phone_number', 'profile_picture', 'role', 'title', 'updated'],
  webhook: ['created', 'created_by', 'event_types', 'failure_count', 'id', 'last_triggered_at', 'name', 'status', 'updated', 'url'],
  webhookCreator: ['email', 'first_name', 'id', 'last_name'],
}; // prettier-ignore

/** Response keys that are internal wherever they appear. */
const INTERNAL_KEY = /^_|^key_hash$|^profile_sealed$|^secret_box|^sealed/;
const STACK_TRACE = /node_modules|\/work\/|\.ts:\d+:\d+|\.js:\d+:\d+|\bat [A-Za-z_$][\w$.]* \(/;

type Keys = Tenant & { pilotId: string; projectId: string; jobId: string; jobTypeId: string; webhookId: string };

describe(`Security: OWASP API Top 10 (2023) (${profile.name} profile)`, () => {
  const adminToken = `adm_${randomBytes(24).toString('base64url')}`;
  const secrets = new SecretRegistry();
  secrets.add('admin token', adminToken, 'admin_token');
  const dirs: string[] = [];
  const processes: ServiceProcess[] = [];
  let receiver: HttpsReceiver;
  let service: ServiceProcess;
  let api: ServiceClient;
  let owner: Keys;
  let attackers: Keys[];
  const routes = routeInventory();
  /** Every response of the suite with what produced it, for the scans at the end. */
  const responses: { what: string; tenant: string; res: RawResponse; secretsShownOnPurpose: boolean }[] = [];
  const figures = {
    bolaChecks: 0,
    bolaRoutes: new Set<string>(),
    readOnlyChecks: 0,
    functionLevelChecks: 0,
    massAssignmentChecks: 0,
    ssrfRefused: 0,
    pageChecks: 0,
    responsesScanned: 0,
  };

  const record = (what: string, tenant: string, res: RawResponse, secretsShownOnPurpose = false) => {
    responses.push({ what, tenant, res, secretsShownOnPurpose });
    return res;
  };

  async function startService(env: Record<string, string>) {
    const dataDir = mkdtempSync(join(tmpdir(), 'wos-security-'));
    dirs.push(dataDir);
    const started = await startServiceProcess({
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'info',
      ...UNLIMITED_RATE,
      ...env,
    });
    processes.push(started);
    return started;
  }

  async function tenantWithResources(client: ServiceClient, name: string): Promise<Keys> {
    const tenant = await client.provision({ name });
    const pilotId = await client.addMember(
      tenant.workspaceId,
      `pilot@${name.toLowerCase().replace(/\W/g, '')}.example.com`,
      'pilot',
    );
    const projectId = (
      await client.call('POST', '/v1/projects', tenant.fullKey, {
        name: `${name} project`,
        description: 'd',
        status: 'planned',
        start_date: today(),
      })
    ).body.id;
    const job = await client.call('POST', `/v1/projects/${projectId}/jobs`, tenant.fullKey, {
      name: `${name} job`, type: 'wind_turbine', job_pattern: 'recurring', recurring_frequency: 'daily', start_date: plusDays(today(), 5), end_date: plusDays(today(), 9),
    }); // prettier-ignore
    expect(job.status).toBe(201);
    expect(
      (
        await client.call('POST', `/v1/projects/${projectId}/jobs/${job.body.id}/assign`, tenant.fullKey, {
          pilots: [pilotId],
        })
      ).status,
    ).toBe(200);
    const jobTypeId = (await client.call('POST', '/v1/job-types', tenant.fullKey, { name: `${name} type` })).body.id;
    // Subscribed only to an event type never produced here: no delivery is ever attempted.
    const webhook = await client.createWebhook(tenant.fullKey, {
      name: `${name} hook`,
      url: receiver.url(`/owner/${name}`),
      event_types: ['job_type.deleted'],
    });
    return { ...tenant, pilotId, projectId, jobId: job.body.id, jobTypeId, webhookId: webhook.id };
  }

  beforeAll(async () => {
    receiver = await HttpsReceiver.start();
    service = await startService({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', NODE_EXTRA_CA_CERTS: receiver.caFile });
    api = new ServiceClient(service.baseUrl, adminToken, (label, value, kind) => secrets.add(label, value, kind));
    owner = await tenantWithResources(api, 'Owner');
    attackers = [await tenantWithResources(api, 'Mallory'), await tenantWithResources(api, 'Trudy')];
    // A rotation: the new secret is shown once, the old one must not surface either.
    const rotated = await api.call('POST', `/v1/webhooks/${owner.webhookId}/rotate-secret`, owner.fullKey);
    expect(rotated.status).toBe(200);
    secrets.add('rotated webhook secret', rotated.body.secret, 'webhook_secret');
  }, 120_000);

  afterAll(async () => {
    for (const p of processes) await p.stop('SIGKILL');
    api?.close();
    await receiver?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  // --- fixtures per route -----------------------------------------------------------------------

  /** Ids for a route's parameters: all of one tenant, or (`mixed`) the caller's project with the owner's job. */
  function idsOf(keys: Keys): Record<string, string> {
    return {
      projectId: keys.projectId,
      jobId: keys.jobId,
      jobTypeId: keys.jobTypeId,
      teamMemberId: keys.pilotId,
      webhookId: keys.webhookId,
    };
  }

  /** An id of the same shape as `id` that names nothing. */
  const unknownLike = (id: string) =>
    `${id.slice(0, Math.max(4, id.length - 8))}${randomBytes(6).toString('base64url').slice(0, 8)}`;

  /** A body the route accepts from its own tenant, so that the answer is about the id, not the body. */
  function validBody(route: RouteInfo, caller: Keys): unknown {
    switch (`${route.method} ${route.path}`) {
      case 'PATCH /v1/projects/:projectId':
      case 'PATCH /v1/projects/:projectId/jobs/:jobId':
      case 'PATCH /v1/webhooks/:webhookId':
        return { name: 'Hijacked' };
      case 'POST /v1/projects/:projectId/archive':
        return { archived: true };
      case 'POST /v1/projects/:projectId/jobs':
        return { name: 'Planted', type: 'wind_turbine', job_pattern: 'one_time', start_date: plusDays(today(), 3) };
      case 'POST /v1/projects/:projectId/jobs/:jobId/assign':
      case 'POST /v1/projects/:projectId/jobs/:jobId/unassign':
        return { pilots: [caller.pilotId] };
      case 'POST /v1/webhooks/:webhookId/recover':
        return { since: 0 };
      case 'POST /v1/projects':
        return { name: 'Mine', description: 'd', status: 'planned', start_date: today() };
      case 'POST /v1/job-types':
        return { name: 'Mine' };
      case 'POST /v1/webhooks':
        return { name: 'Mine', url: receiver.url('/mine'), event_types: ['job_type.deleted'] };
      default:
        return undefined;
    }
  }

  const apiKeyRoutes = routes.filter((r) => r.audience === 'api_key');
  const idRoutes = apiKeyRoutes.filter((r) => r.params.length > 0);
  const KNOWN_PARAMS = new Set(['projectId', 'jobId', 'jobTypeId', 'teamMemberId', 'webhookId']);

  /** What must not change when someone else tries: every owner resource as GET shows it, and the owner's audit feed. */
  async function ownerSnapshot() {
    const get = async (path: string) => {
      const res = await api.call('GET', path, owner.readKey);
      return { status: res.status, body: res.body };
    };
    return {
      project: await get(`/v1/projects/${owner.projectId}`),
      job: await get(`/v1/projects/${owner.projectId}/jobs/${owner.jobId}`),
      jobs: await get(`/v1/projects/${owner.projectId}/jobs`),
      occurrences: await get(`/v1/projects/${owner.projectId}/jobs/${owner.jobId}/occurrences`),
      jobTypes: await get('/v1/job-types'),
      member: await get(`/v1/team/${owner.pilotId}`),
      webhook: await get(`/v1/webhooks/${owner.webhookId}`),
      deliveries: await get(`/v1/webhooks/${owner.webhookId}/deliveries`),
      feed: (await api.listAll('/v1/events', owner.readKey, 'events')).length,
    };
  }

  // --- API1 -----------------------------------------------------------------------------------

  it('has a fixture for every id parameter of every route an API key can call', () => {
    expect(idRoutes.length).toBeGreaterThanOrEqual(20);
    const unknown = idRoutes.flatMap((r) =>
      r.params.filter((p) => !KNOWN_PARAMS.has(p)).map((p) => `${r.method} ${r.path} :${p}`),
    );
    expect(unknown).toEqual([]);
  });

  it('answers another workspace’s ids on every id-bearing route exactly as it answers unknown ids, and changes nothing (API1)', async () => {
    const before = await ownerSnapshot();
    const mismatches: unknown[] = [];
    // Headers an attacker could tell a foreign id from a missing one by.
    const telling = ['content-type', 'etag', 'last-modified', 'location', 'content-length', 'allow'];
    for (const route of idRoutes) {
      for (const attacker of attackers) {
        const variants: { label: string; foreign: Record<string, string>; unknown: Record<string, string> }[] = [
          {
            label: 'owner ids',
            foreign: idsOf(owner),
            unknown: Object.fromEntries(Object.entries(idsOf(owner)).map(([k, v]) => [k, unknownLike(v)])),
          },
        ];
        // A project of one's own with someone else's job in it.
        if (route.params.includes('projectId') && route.params.includes('jobId')) {
          variants.push({
            label: 'own project, owner job',
            foreign: { ...idsOf(attacker), jobId: owner.jobId },
            unknown: { ...idsOf(attacker), jobId: unknownLike(owner.jobId) },
          });
        }
        for (const variant of variants) {
          const keysToTry = route.method === 'GET' ? [attacker.fullKey, attacker.readKey] : [attacker.fullKey];
          for (const key of keysToTry) {
            const body = validBody(route, attacker);
            const foreign = record(
              `${route.method} ${route.path} (${variant.label})`,
              attacker.workspaceId,
              await api.call(route.method, fillPath(route, variant.foreign), key, body),
            );
            const unknown = record(
              `${route.method} ${route.path} (unknown)`,
              attacker.workspaceId,
              await api.call(route.method, fillPath(route, variant.unknown), key, body),
            );
            figures.bolaChecks += 1;
            figures.bolaRoutes.add(`${route.method} ${route.path}`);
            const view = (res: RawResponse) => ({
              status: res.status,
              body: res.body,
              headers: Object.fromEntries(telling.map((h) => [h, res.headers[h] ?? null])),
            });
            if (unknown.status !== 404 || JSON.stringify(view(foreign)) !== JSON.stringify(view(unknown))) {
              mismatches.push({
                route: `${route.method} ${route.path}`,
                variant: variant.label,
                foreign: view(foreign),
                unknown: view(unknown),
              });
            }
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(await ownerSnapshot()).toEqual(before);
    // Nothing in the owner's history was done by an attacker's key.
    const attackerKeys = new Set(attackers.flatMap((a) => [a.fullKeyId, a.readKeyId]));
    const events = await api.listAll<{ actor: { id?: string } }>('/v1/events', owner.readKey, 'events');
    expect(events.filter((e) => e.actor.id && attackerKeys.has(e.actor.id))).toEqual([]);
  });

  // --- API2 / API5 ---------------------------------------------------------------------------

  it('refuses every write route to a read_only key with read_only_access, changing nothing (API5)', async () => {
    const before = await ownerSnapshot();
    const writes = apiKeyRoutes.filter((r) => WRITE_METHODS.has(r.method));
    expect(writes.length).toBeGreaterThanOrEqual(15);
    const wrong: unknown[] = [];
    for (const route of writes) {
      const res = record(
        `${route.method} ${route.path} (read_only)`,
        owner.workspaceId,
        await api.call(route.method, fillPath(route, idsOf(owner)), owner.readKey, validBody(route, owner)),
      );
      figures.readOnlyChecks += 1;
      if (
        res.status !== 403 ||
        JSON.stringify(res.body) !==
          JSON.stringify({ message: 'API key has read-only access', code_name: 'read_only_access' })
      ) {
        wrong.push({ route: `${route.method} ${route.path}`, status: res.status, body: res.body });
      }
    }
    expect(wrong).toEqual([]);
    expect(await ownerSnapshot()).toEqual(before);
  });

  it('refuses API keys on every operator route and the operator token on every API-key route (API5)', async () => {
    const wrong: unknown[] = [];
    const fill = (route: RouteInfo) =>
      route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) =>
        name === 'workspaceId'
          ? owner.workspaceId
          : name === 'keyId'
            ? owner.fullKeyId
            : name === 'memberId'
              ? owner.pilotId
              : 'x',
      );
    for (const route of routes.filter((r) => r.audience === 'operator')) {
      for (const [label, token, code] of [
        ['full_access key', owner.fullKey, 'api_key_path_not_allowed'],
        ['read_only key', owner.readKey, 'api_key_path_not_allowed'],
        ['no token', undefined, 'invalid_admin_token'],
        ['wrong token', `${adminToken}x`, 'invalid_admin_token'],
      ] as const) {
        const res = record(
          `${route.method} ${route.path} (${label})`,
          owner.workspaceId,
          await api.call(route.method, fill(route), token, route.method === 'GET' ? undefined : {}),
        );
        figures.functionLevelChecks += 1;
        if (res.status !== 403 || res.body?.code_name !== code)
          wrong.push({ route: `${route.method} ${route.path}`, label, status: res.status, body: res.body });
      }
    }
    for (const route of apiKeyRoutes) {
      const res = record(
        `${route.method} ${route.path} (admin token)`,
        'operator',
        await api.call(route.method, fillPath(route, idsOf(owner)), adminToken, validBody(route, owner)),
      );
      figures.functionLevelChecks += 1;
      if (res.status !== 403 || res.body?.code_name !== 'invalid_api_key')
        wrong.push({
          route: `${route.method} ${route.path}`,
          label: 'admin token',
          status: res.status,
          body: res.body,
        });
    }
    expect(wrong).toEqual([]);
    // The deactivated key and the non-Enterprise key are refused everywhere too.
    const retired = await api.createKey(owner.workspaceId, 'full_access', 'Retired');
    await api.expectAdmin('POST', `/api-keys/${retired.id}/deactivate`, undefined, 200);
    const pro = await api.provision({ name: 'Pro', plan: 'pro' });
    for (const route of apiKeyRoutes) {
      for (const [token, code] of [
        [retired.key, 'api_key_inactive'],
        [pro.fullKey, 'enterprise_required'],
      ] as const) {
        const res = record(
          `${route.method} ${route.path} (${code})`,
          owner.workspaceId,
          await api.call(route.method, fillPath(route, idsOf(owner)), token, validBody(route, owner)),
        );
        figures.functionLevelChecks += 1;
        if (res.status !== 403 || res.body?.code_name !== code)
          wrong.push({ route: `${route.method} ${route.path}`, code, status: res.status, body: res.body });
      }
    }
    expect(wrong).toEqual([]);
  });

  // --- API3 ----------------------------------------------------------------------------------

  it('refuses properties no client may set on every write route with a body (API3, mass assignment)', async () => {
    const before = await ownerSnapshot();
    const wrong: unknown[] = [];
    for (const route of apiKeyRoutes.filter((r) => WRITE_METHODS.has(r.method))) {
      const body = validBody(route, owner);
      if (typeof body !== 'object' || body === null) continue;
      // Were a field ignored rather than refused, a create would succeed and the snapshot below would show it.
      for (const field of NEVER_WRITABLE) {
        const res = record(
          `${route.method} ${route.path} (+${field})`,
          owner.workspaceId,
          await api.call(route.method, fillPath(route, idsOf(owner)), owner.fullKey, {
            ...body,
            [field]: field === 'created_by' ? { id: 'key_x' } : 'forged',
          }),
        );
        figures.massAssignmentChecks += 1;
        if (res.status !== 400 || res.body?.message !== `${field} is not an allowed field`)
          wrong.push({ route: `${route.method} ${route.path}`, field, status: res.status, body: res.body });
      }
    }
    expect(wrong).toEqual([]);
    expect(await ownerSnapshot()).toEqual(before);
  });

  it('shows exactly the documented fields for every resource, in lists and single reads (API3)', async () => {
    const keysOf = (o: object) => Object.keys(o).sort();
    const get = async (path: string) => {
      const res = record(`GET ${path}`, owner.workspaceId, await api.call('GET', path, owner.readKey));
      expect(res.status).toBe(200);
      return res.body;
    };
    const project = await get(`/v1/projects/${owner.projectId}`);
    expect(keysOf(project)).toEqual(SPEC_FIELDS.project);
    expect(keysOf(project.created_by)).toEqual(SPEC_FIELDS.projectCreator);
    const projects = await get('/v1/projects');
    expect(keysOf(projects)).toEqual(['count', 'cursor', 'projects']);
    for (const p of projects.projects) expect(keysOf(p)).toEqual(SPEC_FIELDS.project);
    expect(keysOf(await get(`/v1/projects/${owner.projectId}/jobs/${owner.jobId}`))).toEqual(SPEC_FIELDS.job);
    const jobs = await get(`/v1/projects/${owner.projectId}/jobs`);
    expect(keysOf(jobs)).toEqual(['count', 'cursor', 'jobs', 'project_id']);
    for (const j of jobs.jobs) expect(keysOf(j)).toEqual(SPEC_FIELDS.job);
    const jobTypes = await get('/v1/job-types');
    expect(keysOf(jobTypes)).toEqual(['count', 'cursor', 'job_types']);
    for (const t of jobTypes.job_types) expect(keysOf(t)).toEqual(SPEC_FIELDS.jobType);
    const team = await get('/v1/team');
    expect(keysOf(team)).toEqual(['count', 'cursor', 'team']);
    for (const m of team.team) expect(keysOf(m)).toEqual(SPEC_FIELDS.memberListed);
    expect(keysOf(await get(`/v1/team/${owner.pilotId}`))).toEqual(SPEC_FIELDS.member);
    const webhooks = await get('/v1/webhooks');
    expect(keysOf(webhooks)).toEqual(['count', 'cursor', 'webhooks']);
    for (const w of webhooks.webhooks) {
      expect(keysOf(w)).toEqual(SPEC_FIELDS.webhook);
      expect(keysOf(w.created_by)).toEqual(SPEC_FIELDS.webhookCreator);
    }
    expect(keysOf(await get(`/v1/webhooks/${owner.webhookId}`))).toEqual(SPEC_FIELDS.webhook);
  });

  // --- API4 ----------------------------------------------------------------------------------

  it('never returns more than a page of 50, whatever the query asks for (API4)', async () => {
    // Enough of everything that a page limit matters.
    const creates = Array.from({ length: 55 }, (_, i) =>
      api.call('POST', `/v1/projects/${owner.projectId}/jobs`, owner.fullKey, {
        name: `Bulk ${i}`,
        type: 'wind_turbine',
        job_pattern: 'one_time',
        start_date: plusDays(today(), 3),
      }),
    );
    const projects = Array.from({ length: 55 }, (_, i) =>
      api.call('POST', '/v1/projects', owner.fullKey, {
        name: `Bulk ${i}`,
        description: 'd',
        status: 'draft',
        start_date: today(),
      }),
    );
    expect((await Promise.all([...creates, ...projects])).every((r) => r.status === 201)).toBe(true);
    const greedy = '?limit=100000&page_size=100000&per_page=100000&count=100000&max=100000';
    const lists = apiKeyRoutes.filter(
      (r) =>
        r.method === 'GET' &&
        !r.path.endsWith('/:jobId') &&
        !r.path.endsWith('/:projectId') &&
        !r.path.endsWith('/:teamMemberId') &&
        !r.path.endsWith('/:webhookId'),
    );
    expect(lists.length).toBeGreaterThanOrEqual(10);
    const wrong: unknown[] = [];
    for (const route of lists) {
      const res = record(
        `GET ${route.path} (greedy)`,
        owner.workspaceId,
        await api.call('GET', `${fillPath(route, idsOf(owner))}${greedy}`, owner.readKey),
      );
      figures.pageChecks += 1;
      if (res.status !== 200) {
        wrong.push({ route: route.path, status: res.status, body: res.body });
        continue;
      }
      const arrays = Object.values(res.body as Record<string, unknown>).filter(Array.isArray) as unknown[][];
      // Job types: predefined ones come on top of the page (docs/api.md, Job types: "count is the total returned").
      const cap = route.path === '/v1/job-types' ? 50 + 20 : 50;
      if (arrays.some((items) => items.length > cap))
        wrong.push({ route: route.path, sizes: arrays.map((a) => a.length) });
    }
    expect(wrong).toEqual([]);
    const page = await api.call('GET', `/v1/projects${greedy}`, owner.readKey);
    expect(page.body.count).toBe(50);
    expect(page.body.cursor).toEqual(expect.any(String));
  });

  // --- API7 ----------------------------------------------------------------------------------

  describe('webhook targets (API7, SSRF)', () => {
    let guarded: ServiceClient;
    let ssrfTenant: Tenant;
    let existingHook: string;

    /** Names this machine resolves (hosts file, its own name) to an address that is not public. */
    async function privateNames(): Promise<string[]> {
      const candidates = new Set<string>([hostname()]);
      try {
        for (const line of readFileSync('/etc/hosts', 'utf8').split('\n')) {
          const [, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
          for (const name of names) if (name) candidates.add(name);
        }
      } catch {
        /* no hosts file */
      }
      const found: string[] = [];
      for (const name of candidates) {
        // `localhost` and `*.localhost` are refused by name; the point here is refusal by resolution.
        if (name === 'localhost' || name.endsWith('.localhost') || !/^[a-z0-9.-]+$/i.test(name)) continue;
        try {
          const addresses = await lookup(name, { all: true });
          if (addresses.length > 0 && addresses.some((a) => classifyAddress(a.address) !== 'public')) found.push(name);
        } catch {
          /* does not resolve here */
        }
      }
      return found.slice(0, 4);
    }

    beforeAll(async () => {
      const second = await startService({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
      guarded = new ServiceClient(second.baseUrl, adminToken, (label, value, kind) => secrets.add(label, value, kind));
      ssrfTenant = await guarded.provision({ name: 'SSRF' });
      // A public address literal (no DNS), subscribed to an event type this workspace never produces:
      // the subscription exists so PATCH can be tried, and nothing is ever sent to it.
      existingHook = (
        await guarded.createWebhook(ssrfTenant.fullKey, {
          name: 'Public',
          url: 'https://93.184.215.14/hook',
          event_types: ['job_type.deleted'],
        })
      ).id;
    }, 60_000);
    afterAll(() => guarded?.close());

    const CASES: [string, string][] = [
      ['loopback', 'https://127.0.0.1/hook'],
      ['loopback', 'https://127.1.2.3/hook'],
      ['loopback (short form)', 'https://127.1/hook'],
      ['loopback (decimal)', 'https://2130706433/hook'],
      ['loopback (hex)', 'https://0x7f000001/hook'],
      ['loopback (dotted hex)', 'https://0x7f.0.0.1/hook'],
      ['loopback (octal)', 'https://0177.0.0.1/hook'],
      ['loopback (zero-padded)', 'https://127.000.000.001/hook'],
      ['loopback (name)', 'https://localhost/hook'],
      ['loopback (name, upper case)', 'https://LOCALHOST:8443/hook'],
      ['loopback (subdomain of localhost)', 'https://api.localhost/hook'],
      ['loopback (userinfo trick)', 'https://93.184.215.14@127.0.0.1/hook'],
      ['unspecified', 'https://0.0.0.0/hook'],
      ['unspecified (short)', 'https://0/hook'],
      ['private 10/8', 'https://10.0.0.5/hook'],
      ['private 172.16/12', 'https://172.31.255.254/hook'],
      ['private 192.168/16', 'https://192.168.1.1/hook'],
      ['carrier-grade NAT', 'https://100.64.0.1/hook'],
      ['link-local', 'https://169.254.0.1/hook'],
      ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
      ['cloud metadata (decimal)', 'https://2852039166/latest/meta-data/'],
      ['multicast', 'https://224.0.0.1/hook'],
      ['broadcast', 'https://255.255.255.255/hook'],
      ['IPv6 loopback', 'https://[::1]/hook'],
      ['IPv6 loopback (long form)', 'https://[0:0:0:0:0:0:0:1]/hook'],
      ['IPv6 unspecified', 'https://[::]/hook'],
      ['IPv6 unique local', 'https://[fd00::1]/hook'],
      ['IPv6 unique local fc00::/8', 'https://[fc00::1]/hook'],
      ['IPv6 link-local', 'https://[fe80::1]/hook'],
      ['IPv6 site-local', 'https://[fec0::1]/hook'],
      ['IPv6 multicast', 'https://[ff02::1]/hook'],
      ['AWS IPv6 metadata', 'https://[fd00:ec2::254]/latest/meta-data/'],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
      ['IPv4-mapped loopback (hex)', 'https://[::ffff:7f00:1]/hook'],
      ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/hook'],
      ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/hook'],
      ['IPv4-compatible loopback', 'https://[::127.0.0.1]/hook'],
      ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]/hook'],
      ['6to4 of loopback', 'https://[2002:7f00:1::]/hook'],
    ];

    it('refuses every internal target on create and on update, and creates nothing', async () => {
      const names = await privateNames();
      const cases: [string, string][] = [
        ...CASES,
        ...names.map((name): [string, string] => [
          `name resolving to a private address (${name})`,
          `https://${name}/hook`,
        ]),
      ];
      const countBefore = (await guarded.listAll('/v1/webhooks', ssrfTenant.readKey, 'webhooks')).length;
      const accepted: unknown[] = [];
      for (const [label, url] of cases) {
        const attempt = await guarded.call('POST', '/v1/webhooks', ssrfTenant.fullKey, {
          name: 'Internal',
          url,
          event_types: ['project.created'],
        });
        const created = record(`POST /v1/webhooks (${label})`, ssrfTenant.workspaceId, attempt, attempt.status === 201);
        if (created.status === 201) secrets.add(`ssrf webhook secret ${label}`, created.body.secret, 'webhook_secret');
        if (created.status !== 400 || created.body.message !== NOT_PUBLIC)
          accepted.push({ label, url, on: 'create', status: created.status, body: created.body });
        else figures.ssrfRefused += 1;
        const updated = record(
          `PATCH /v1/webhooks/:id (${label})`,
          ssrfTenant.workspaceId,
          await guarded.call('PATCH', `/v1/webhooks/${existingHook}`, ssrfTenant.fullKey, { url }),
        );
        if (updated.status !== 400 || updated.body.message !== NOT_PUBLIC)
          accepted.push({ label, url, on: 'update', status: updated.status, body: updated.body });
        else figures.ssrfRefused += 1;
      }
      expect(accepted).toEqual([]);
      expect((await guarded.listAll('/v1/webhooks', ssrfTenant.readKey, 'webhooks')).length).toBe(countBefore);
      expect((await guarded.call('GET', `/v1/webhooks/${existingHook}`, ssrfTenant.readKey)).body.url).toBe(
        'https://93.184.215.14/hook',
      );
      console.log(
        `[reliability:security] SSRF names resolving to private addresses on this machine: ${names.join(', ') || 'none found'}`,
      );
    });

    it('does not follow a redirect to an internal host, on a test delivery or an event delivery', async () => {
      // On the service that may deliver to loopback: the receiver is the first hop, the redirect the attack.
      const internal = '/internal/admin';
      receiver.respond('/redirect', { status: 307, headers: { location: receiver.url(internal) } });
      receiver.respond('/redirect-metadata', {
        status: 302,
        headers: { location: 'https://169.254.169.254/latest/meta-data/' },
      });
      for (const path of ['/redirect', '/redirect-metadata']) {
        const hook = await api.createWebhook(owner.fullKey, {
          name: `Redirect ${path}`,
          url: receiver.url(path),
          event_types: ['project.created'],
        });
        const test = record(
          `POST /v1/webhooks/:id/test (${path})`,
          owner.workspaceId,
          await api.call('POST', `/v1/webhooks/${hook.id}/test`, owner.fullKey),
        );
        expect(test.status).toBe(200);
        expect(test.body).toMatchObject({
          message: 'Test delivery failed',
          delivery: { succeeded: false, response_status: path === '/redirect' ? 307 : 302 },
        });
        figures.ssrfRefused += 1;
        // An event delivery too, with its retries: each attempt goes to the subscription URL again.
        await api.call('POST', '/v1/projects', owner.fullKey, {
          name: 'Redirected',
          description: 'd',
          status: 'planned',
          start_date: today(),
        });
        await receiver.waitFor(path, 2, 15_000);
        await api.call('PATCH', `/v1/webhooks/${hook.id}`, owner.fullKey, { status: 'paused' });
      }
      expect(receiver.received(internal)).toEqual([]);
      figures.ssrfRefused += 1;
    });
  });

  // --- responses and logs ----------------------------------------------------------------------

  it('never shows a credential, an internal field, another workspace’s identifiers or a stack trace in any response (API3, API8)', async () => {
    // Every readable route, once more, by every tenant.
    for (const keys of [owner, ...attackers]) {
      for (const route of apiKeyRoutes.filter((r) => r.method === 'GET')) {
        record(
          `GET ${route.path}`,
          keys.workspaceId,
          await api.call('GET', fillPath(route, idsOf(keys)), keys.readKey),
        );
      }
    }
    for (const route of routes.filter((r) => r.audience === 'operator' && r.method === 'GET')) {
      const query = route.path.endsWith('/export') ? `?workspace_id=${owner.workspaceId}` : '';
      record(`GET ${route.path}`, 'operator', await api.admin('GET', `${route.path.replace('/v1/admin', '')}${query}`));
    }
    // Public pages (probes, API documentation): for credentials only; their HTML and scripts are not JSON APIs.
    for (const route of routes.filter((r) => r.audience === 'public' && r.method === 'GET' && r.params.length === 0)) {
      record(`GET ${route.path}`, 'public', await api.call('GET', route.path, undefined));
    }

    const problems: unknown[] = [];
    const walk = (value: unknown, at: string, found: (key: string, at: string) => void) => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`, found));
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          found(key, `${at}.${key}`);
          walk(inner, `${at}.${key}`, found);
        }
      }
    };
    const foreignIds = (tenant: string) =>
      [owner, ...attackers]
        .filter((k) => k.workspaceId !== tenant)
        .flatMap((k) => [
          k.workspaceId,
          k.fullKeyId,
          k.readKeyId,
          k.projectId,
          k.jobId,
          k.jobTypeId,
          k.webhookId,
          k.pilotId,
        ]);
    for (const { what, tenant, res, secretsShownOnPurpose } of responses) {
      figures.responsesScanned += 1;
      if (tenant === 'public') {
        for (const f of secrets.scan(res.text, what)) problems.push(f);
        continue;
      }
      if (res.headers['x-powered-by']) problems.push({ what, header: 'x-powered-by' });
      if (STACK_TRACE.test(res.text)) problems.push({ what, stack: res.text.slice(0, 300) });
      if (!secretsShownOnPurpose) for (const f of secrets.scan(res.text, what)) problems.push(f);
      const documents = res.json
        ? [res.body]
        : /ndjson/.test(String(res.headers['content-type']))
          ? res.text
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l))
          : [];
      for (const document of documents) {
        walk(document, '$', (key, at) => {
          if (INTERNAL_KEY.test(key)) problems.push({ what, internal: at });
          if (/secret/i.test(key) && !secretsShownOnPurpose) problems.push({ what, secretField: at });
        });
      }
      // Tenants never see each other; the operator sees everything by design.
      if (tenant !== 'operator')
        for (const id of foreignIds(tenant)) if (res.text.includes(id)) problems.push({ what, tenant, foreignId: id });
    }
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('writes no credential into any log line of any process', async () => {
    // Stop gracefully first, so every line is flushed.
    for (const p of processes) expect(await p.stop('SIGTERM')).toBe(0);
    const findings = processes.flatMap((p, i) => secrets.scan(p.output, `process ${i + 1}`));
    expect(findings).toEqual([]);
    // The scan had something to look for, and something to look at.
    expect(secrets.labels().length).toBeGreaterThanOrEqual(10);
    expect(processes.every((p) => p.output.split('\n').filter((l) => l.startsWith('{')).length > 50)).toBe(true);

    console.log(
      `[reliability:security] profile=${profile.name} routes=${routes.length} (api key ${apiKeyRoutes.length}, id-bearing ${idRoutes.length}) ` +
        `BOLA routes×tenants=${figures.bolaRoutes.size}×${attackers.length} (${figures.bolaChecks} comparisons) read_only refusals=${figures.readOnlyChecks} ` +
        `function-level refusals=${figures.functionLevelChecks} mass-assignment refusals=${figures.massAssignmentChecks} page-size checks=${figures.pageChecks} ` +
        `SSRF cases refused=${figures.ssrfRefused} responses scanned=${figures.responsesScanned} credentials scanned for=${secrets.labels().length} ` +
        `log lines scanned=${processes.reduce((n, p) => n + p.output.split('\n').length, 0)}`,
    );
  });
});
