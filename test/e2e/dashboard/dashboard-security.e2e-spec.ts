import { ADMIN_TOKEN, TestApp, useTestApp } from '../../support/test-app';
import { routeInventory } from '../../support/route-inventory';
import {
  csrfOf,
  dashboard,
  mintLink,
  PageResult,
  sessionSet,
  signIn,
  workspaceWithMembers,
} from '../../support/dashboard';

/**
 * The dashboard's access rules over plain HTTP (docs/dashboard.md, Security): sign-in links,
 * sessions and their cookie, CSRF, the roles matrix, workspaces kept apart on every route, and
 * the session's uselessness anywhere but the dashboard.
 */

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const DASHBOARD_ROUTES = routeInventory().filter((r) => r.path === '/dashboard' || r.path.startsWith('/dashboard/'));

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

/** A workspace with an API key created by its root in the dashboard. */
async function workspaceWithKey(t: TestApp, name: string) {
  const ws = await workspaceWithMembers(t, name, ['root', 'project_manager', 'ops_lead', 'pilot', 'client']);
  const root = await signIn(t, ws.workspaceId, ws.members.root);
  const keys = await dashboard(t, 'GET', '/dashboard/api-keys', { cookie: root });
  const created = await dashboard(t, 'POST', '/dashboard/api-keys', {
    cookie: root,
    form: { _csrf: csrfOf(keys.html), name: `${name} deploy bot`, scope: 'full_access' },
  });
  expect(created.status).toBe(201);
  const secret = /value="(v1_[A-Za-z0-9_-]+)"/.exec(created.html)![1];
  const list = await dashboard(t, 'GET', '/dashboard/api-keys', { cookie: root });
  const keyId = /\/dashboard\/api-keys\/(key_[A-Za-z0-9]+)\/deactivate/.exec(list.html)![1];
  const webhookId = await createWebhook(t, root, `${name} hook`);
  const { projectId, jobId } = await createProjectWithJob(t, secret, name);
  return { ...ws, root, secret, keyId, webhookId, projectId, jobId };
}

/** A project with one job, created through the API with the key; answers their ids. */
async function createProjectWithJob(t: TestApp, secret: string, name: string) {
  const start = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const project = await t.request('POST', '/v1/projects', {
    token: secret,
    body: { name: `${name} project`, description: 'Survey', status: 'planned', start_date: start },
  });
  expect(project.status).toBe(201);
  const job = await t.request('POST', `/v1/projects/${project.body.id}/jobs`, {
    token: secret,
    body: { name: `${name} job`, type: 'wind_turbine', job_pattern: 'one_time', start_date: start },
  });
  expect(job.status).toBe(201);
  return { projectId: project.body.id as string, jobId: job.body.id as string };
}

/** A public address literal: accepted without a DNS lookup, and never reached by these tests. */
const HOOK_URL = 'https://93.184.216.34/hooks';

/** A webhook created by the member of the session in the dashboard; answers its id. */
async function createWebhook(t: TestApp, cookie: string, name: string): Promise<string> {
  const page = await dashboard(t, 'GET', '/dashboard/webhooks', { cookie });
  const created = await dashboard(t, 'POST', '/dashboard/webhooks', {
    cookie,
    form: { _csrf: csrfOf(page.html), name, url: HOOK_URL, event_types: 'project.created' },
  });
  expect(created.status).toBe(201);
  return /href="\/dashboard\/webhooks\/(whk_[A-Za-z0-9]+)"/.exec(created.html)![1];
}

describe('Dashboard security', () => {
  const t = useTestApp();

  describe('sign-in links', () => {
    it('are absolute links to this service, valid 15 minutes, for a member of the workspace only', async () => {
      const ws = await workspaceWithMembers(t, 'Links', ['root']);
      const other = await workspaceWithMembers(t, 'Other', ['root']);
      const before = Date.now();
      const link = await mintLink(t, ws.workspaceId, ws.members.root);

      expect(link.url).toMatch(new RegExp(`^${t.baseUrl}/dashboard/sign-in\\?token=[A-Za-z0-9_-]{43}$`));
      expect(link.expires_at).toBeGreaterThanOrEqual(before + 15 * 60_000);
      expect(link.expires_at).toBeLessThanOrEqual(Date.now() + 15 * 60_000);

      const path = (w: string, m: string) => `/workspaces/${w}/members/${m}/dashboard-links`;
      expect(await t.admin('POST', path('ws_unknown', ws.members.root))).toMatchObject({
        status: 404,
        body: { message: 'Workspace not found' },
      });
      expect(await t.admin('POST', path(ws.workspaceId, 'usr_unknown'))).toMatchObject({
        status: 404,
        body: { message: 'User not found' },
      });
      expect(await t.admin('POST', path(ws.workspaceId, other.members.root))).toMatchObject({
        status: 404,
        body: { message: 'User not found' },
      });
    });

    it('are minted for active members only', async () => {
      const ws = await workspaceWithMembers(t, 'Inactive', []);
      const member = await t.admin('POST', `/workspaces/${ws.workspaceId}/members`, {
        email: 'gone@example.com',
        role: 'root',
        status: 'inactive',
      });
      const res = await t.admin('POST', `/workspaces/${ws.workspaceId}/members/${member.body.id}/dashboard-links`);
      expect(res).toMatchObject({
        status: 409,
        body: { message: 'This member cannot sign in to the dashboard: only an active member can' },
      });
    });

    it('are the operator’s: an API key or no token is refused', async () => {
      const keys = await t.provision();
      const ws = await workspaceWithMembers(t, 'Operator only', ['root']);
      const path = `/v1/admin/workspaces/${ws.workspaceId}/members/${ws.members.root}/dashboard-links`;
      expect(await t.request('POST', path, { token: keys.fullKey })).toMatchObject({
        status: 403,
        body: { code_name: 'api_key_path_not_allowed' },
      });
      expect(await t.request('POST', path)).toMatchObject({ status: 403, body: { code_name: 'invalid_admin_token' } });
    });

    it('are not used up by opening them (link previews), work once, and a used link is refused', async () => {
      const ws = await workspaceWithMembers(t, 'Once', ['root']);
      const link = await mintLink(t, ws.workspaceId, ws.members.root);
      const path = new URL(link.url).pathname + new URL(link.url).search;
      for (let i = 0; i < 3; i++) {
        const page = await dashboard(t, 'GET', path);
        expect(page.status).toBe(200);
        expect(page.html).toContain(`name="token" value="${tokenOf(link.url)}"`);
        expect(sessionSet(page)).toBeUndefined();
      }

      const first = await dashboard(t, 'POST', '/dashboard/sign-in', { form: { token: tokenOf(link.url) } });
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/dashboard/api-keys');
      expect(sessionSet(first)).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const again = await dashboard(t, 'POST', '/dashboard/sign-in', { form: { token: tokenOf(link.url) } });
      expect(again.status).toBe(400);
      expect(again.html).toContain('This sign-in link does not work');
      expect(sessionSet(again)).toBeUndefined();
      for (const token of ['', 'nonsense', 'A'.repeat(43)]) {
        const refused = await dashboard(t, 'POST', '/dashboard/sign-in', { form: { token } });
        expect(refused.status).toBe(400);
      }
    });

    it('from another site are refused, even with a valid token (no signing a victim in to another session)', async () => {
      const ws = await workspaceWithMembers(t, 'Login CSRF', ['root']);
      const link = await mintLink(t, ws.workspaceId, ws.members.root);
      const refused = await dashboard(t, 'POST', '/dashboard/sign-in', {
        form: { token: tokenOf(link.url) },
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(refused.status).toBe(403);
      expect(sessionSet(refused)).toBeUndefined();
      // Not used up by the refused attempt.
      const accepted = await dashboard(t, 'POST', '/dashboard/sign-in', { form: { token: tokenOf(link.url) } });
      expect(accepted.status).toBe(303);
    });
  });

  describe('sessions', () => {
    it('set a cookie that scripts cannot read, for the dashboard only, never sent by another site', async () => {
      const ws = await workspaceWithMembers(t, 'Cookie', ['root']);
      const link = await mintLink(t, ws.workspaceId, ws.members.root);
      const signedIn = await dashboard(t, 'POST', '/dashboard/sign-in', { form: { token: tokenOf(link.url) } });
      const cookie = signedIn.headers.get('set-cookie')!;
      const attributes = cookie.split(';').map((a) => a.trim());
      expect(attributes[0]).toMatch(/^dashboard_session=[A-Za-z0-9_-]{43}$/);
      expect(attributes.slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=43200', 'Path=/dashboard', 'SameSite=Strict']);
    });

    it('end at sign-out: the cookie is cleared and the session no longer works', async () => {
      const ws = await workspaceWithMembers(t, 'Sign out', ['root']);
      const cookie = await signIn(t, ws.workspaceId, ws.members.root);
      const page = await dashboard(t, 'GET', '/dashboard/team', { cookie });

      const out = await dashboard(t, 'POST', '/dashboard/sign-out', { cookie, form: { _csrf: csrfOf(page.html) } });
      expect(out.status).toBe(200);
      expect(out.headers.get('set-cookie')).toMatch(
        /^dashboard_session=; Path=\/dashboard; Max-Age=0; HttpOnly; SameSite=Strict$/,
      );
      expect(out.html).toContain('You have signed out');
      for (const path of ['/dashboard/team', '/dashboard/api-keys']) {
        expect((await dashboard(t, 'GET', path, { cookie })).status).toBe(401);
      }
    });

    it('end when the browser signs in again: the earlier session is deleted, not left behind', async () => {
      const ws = await workspaceWithMembers(t, 'Again', ['root', 'pilot']);
      const first = await signIn(t, ws.workspaceId, ws.members.root);
      const link = await mintLink(t, ws.workspaceId, ws.members.pilot);
      const again = await dashboard(t, 'POST', '/dashboard/sign-in', {
        cookie: first,
        form: { token: tokenOf(link.url) },
      });
      const second = sessionSet(again)!;
      expect(second).not.toBe(first);
      expect((await dashboard(t, 'GET', '/dashboard/team', { cookie: first })).status).toBe(401);
      const page = await dashboard(t, 'GET', '/dashboard/team', { cookie: second });
      expect(page.html).toContain('Pat Pilot');
    });

    it('stop working as soon as the member is erased', async () => {
      const ws = await workspaceWithMembers(t, 'Erased', ['root']);
      const cookie = await signIn(t, ws.workspaceId, ws.members.root);
      expect((await dashboard(t, 'GET', '/dashboard/team', { cookie })).status).toBe(200);

      expect((await t.admin('POST', `/members/${ws.members.root}/erase`)).status).toBe(200);
      const after = await dashboard(t, 'GET', '/dashboard/team', { cookie });
      expect(after.status).toBe(401);
      expect(after.html).toContain('Sign in required');
    });

    it('are the only way in: without one every page is a 401, an API key or the admin token mean nothing', async () => {
      const keys = await t.provision();
      for (const route of DASHBOARD_ROUTES.filter((r) => r.method === 'GET' && r.params.length === 0)) {
        // The home page and the link's page are for anyone; the catch-all says "no such page" to anyone.
        if (['/dashboard', '/dashboard/sign-in', '/dashboard/*'].includes(route.path)) continue;
        const credentials: Array<Record<string, string>> = [
          {},
          { authorization: `Bearer ${keys.fullKey}` },
          { authorization: `Bearer ${ADMIN_TOKEN}` },
        ];
        for (const headers of credentials) {
          const page = await dashboard(t, 'GET', route.path, { headers });
          expect({ route: route.path, status: page.status }).toEqual({ route: route.path, status: 401 });
        }
      }
      const post = await dashboard(t, 'POST', '/dashboard/api-keys', {
        headers: { authorization: `Bearer ${keys.fullKey}` },
        form: { name: 'x', scope: 'full_access' },
      });
      expect(post.status).toBe(401);
    });

    it('never authorise the API nor the admin API', async () => {
      const ws = await workspaceWithMembers(t, 'Not an API key', ['root']);
      const cookie = await signIn(t, ws.workspaceId, ws.members.root);
      const headers = { cookie: `dashboard_session=${cookie}` };
      expect(await t.request('GET', '/v1/projects', { headers })).toMatchObject({
        status: 403,
        body: { code_name: 'invalid_api_key' },
      });
      expect(await t.request('GET', '/v1/team', { headers })).toMatchObject({ status: 403 });
      expect(
        await t.request('POST', '/v1/admin/workspaces', { headers, body: { name: 'x', plan: 'pro' } }),
      ).toMatchObject({
        status: 403,
        body: { code_name: 'invalid_admin_token' },
      });
      expect(
        await t.request('POST', `/v1/admin/workspaces/${ws.workspaceId}/members/${ws.members.root}/dashboard-links`, {
          headers,
        }),
      ).toMatchObject({ status: 403, body: { code_name: 'invalid_admin_token' } });
    });
  });

  describe('CSRF', () => {
    it('refuses every form post without the session’s token, with a wrong one, or from another site', async () => {
      const a = await workspaceWithKey(t, 'CSRF');
      const page = await dashboard(t, 'GET', '/dashboard/api-keys', { cookie: a.root });
      const csrf = csrfOf(page.html);
      const other = await signIn(t, a.workspaceId, a.members.project_manager);
      const otherCsrf = csrfOf((await dashboard(t, 'GET', '/dashboard/team', { cookie: other })).html);
      expect(otherCsrf).not.toBe(csrf);

      const posts: Array<[string, Record<string, string>]> = [
        ['/dashboard/api-keys', { name: 'Forged', scope: 'full_access' }],
        [`/dashboard/api-keys/${a.keyId}/deactivate`, {}],
        ['/dashboard/webhooks', { name: 'Forged hook', url: HOOK_URL, event_types: 'job.created' }],
        [`/dashboard/webhooks/${a.webhookId}/edit`, { name: 'Forged edit', url: HOOK_URL, event_types: 'job.created' }],
        [`/dashboard/webhooks/${a.webhookId}/pause`, {}],
        [`/dashboard/webhooks/${a.webhookId}/resume`, {}],
        [`/dashboard/webhooks/${a.webhookId}/delete`, {}],
        [`/dashboard/webhooks/${a.webhookId}/rotate-secret`, {}],
        [`/dashboard/webhooks/${a.webhookId}/test`, {}],
        [`/dashboard/webhooks/${a.webhookId}/recover`, { since: '2026-01-01T00:00' }],
        [`/dashboard/webhooks/${a.webhookId}/deliveries/msg_x/resend`, {}],
        ['/dashboard/settings/statuses', { label_planned: 'Forged' }],
        ['/dashboard/sign-out', {}],
      ];
      for (const [path, form] of posts) {
        for (const [what, extra, headers] of [
          ['no token', {}, {}],
          ['a wrong token', { _csrf: 'x'.repeat(43) }, {}],
          ['another session’s token', { _csrf: otherCsrf }, {}],
          ['another site', { _csrf: csrf }, { 'sec-fetch-site': 'cross-site' }],
        ] as const) {
          const res = await dashboard(t, 'POST', path, { cookie: a.root, form: { ...form, ...extra }, headers });
          expect({ path, what, status: res.status }).toEqual({ path, what, status: 403 });
          expect(res.html).toContain('Request refused');
          expect(res.headers.get('content-security-policy')).toBe(CSP);
        }
      }

      // Nothing happened: no key created, the key still works, the session is still signed in.
      const after = await dashboard(t, 'GET', '/dashboard/api-keys', { cookie: a.root });
      expect(after.status).toBe(200);
      expect(after.html).not.toContain('Forged');
      const labels = await dashboard(t, 'GET', '/dashboard/settings/statuses', { cookie: a.root });
      expect(labels.html).not.toContain('Forged');
      expect((await t.request('GET', '/v1/projects', { token: a.secret })).status).toBe(200);
      // The webhook is as it was: not renamed, not paused, not deleted, its secret not rotated.
      const hook = await t.request('GET', `/v1/webhooks/${a.webhookId}`, { token: a.secret });
      expect(hook.body).toMatchObject({ name: 'CSRF hook', status: 'active', event_types: ['project.created'] });
      expect(hook.body.updated).toBe(hook.body.created);
    });
  });

  describe('roles', () => {
    it('let root and project managers create and deactivate keys, and every role read them and the team', async () => {
      const ws = await workspaceWithKey(t, 'Roles');
      for (const role of ['root', 'project_manager', 'ops_lead', 'pilot', 'client']) {
        const cookie = await signIn(t, ws.workspaceId, ws.members[role]);
        const keys = await dashboard(t, 'GET', '/dashboard/api-keys', { cookie });
        const team = await dashboard(t, 'GET', '/dashboard/team', { cookie });
        expect({ role, keys: keys.status, team: team.status }).toEqual({ role, keys: 200, team: 200 });
        expect(keys.html).toContain('Roles deploy bot');
        const manages = ['root', 'project_manager'].includes(role);
        expect({ role, form: keys.html.includes('Create a key') }).toEqual({ role, form: manages });

        const csrf = csrfOf(keys.html);
        const create = await dashboard(t, 'POST', '/dashboard/api-keys', {
          cookie,
          form: { _csrf: csrf, name: `made by ${role}`, scope: 'read_only' },
        });
        const confirm = await dashboard(t, 'GET', `/dashboard/api-keys/${ws.keyId}/deactivate`, { cookie });
        expect({ role, create: create.status, confirm: confirm.status }).toEqual({
          role,
          create: manages ? 201 : 403,
          confirm: manages ? 200 : 403,
        });
        const projects = await dashboard(t, 'GET', '/dashboard/projects', { cookie });
        const names = await dashboard(t, 'GET', '/dashboard/settings/statuses', { cookie });
        const rename = await dashboard(t, 'POST', '/dashboard/settings/statuses', {
          cookie,
          form: { _csrf: csrf, label_planned: `named by ${role}` },
        });
        expect({ role, projects: projects.status, names: names.status, rename: rename.status }).toEqual({
          role,
          projects: 200,
          names: 200,
          rename: manages ? 303 : 403,
        });
        expect(projects.html).toContain('Roles project');
        if (!manages) {
          const deactivate = await dashboard(t, 'POST', `/dashboard/api-keys/${ws.keyId}/deactivate`, {
            cookie,
            form: { _csrf: csrf },
          });
          expect({ role, deactivate: deactivate.status }).toEqual({ role, deactivate: 403 });
          expect(deactivate.html).toContain('Your role does not allow you to deactivate API keys.');
        }
      }
      // Only the root's and the project manager's keys were made; the first key is still active.
      const list = await dashboard(t, 'GET', '/dashboard/api-keys', { cookie: ws.root });
      for (const role of ['ops_lead', 'pilot', 'client']) expect(list.html).not.toContain(`made by ${role}`);
      for (const role of ['root', 'project_manager']) expect(list.html).toContain(`made by ${role}`);
      expect((await t.request('GET', '/v1/projects', { token: ws.secret })).status).toBe(200);
    });
  });

  describe('webhooks', () => {
    it('every role reads the webhooks and their deliveries; only root and project managers change them', async () => {
      const ws = await workspaceWithKey(t, 'Hook roles');
      for (const role of ['ops_lead', 'pilot', 'client']) {
        const cookie = await signIn(t, ws.workspaceId, ws.members[role]);
        const list = await dashboard(t, 'GET', '/dashboard/webhooks', { cookie });
        const one = await dashboard(t, 'GET', `/dashboard/webhooks/${ws.webhookId}`, { cookie });
        expect({ role, list: list.status, one: one.status }).toEqual({ role, list: 200, one: 200 });
        expect(list.html).toContain('Hook roles hook');
        expect(list.html).not.toContain('Create a webhook');
        expect(one.html).not.toMatch(/Send a test event|Rotate secret|Recover failed deliveries|>Delete</);
        for (const page of ['edit', 'delete', 'rotate-secret']) {
          const res = await dashboard(t, 'GET', `/dashboard/webhooks/${ws.webhookId}/${page}`, { cookie });
          expect({ role, page, status: res.status }).toEqual({ role, page, status: 403 });
        }
        const csrf = csrfOf(list.html);
        const posts: Array<[string, Record<string, string>, string]> = [
          [
            '/dashboard/webhooks',
            { name: `made by ${role}`, url: HOOK_URL, event_types: 'job.created' },
            'create webhooks',
          ],
          [
            `/dashboard/webhooks/${ws.webhookId}/edit`,
            { name: `renamed by ${role}`, url: HOOK_URL, event_types: 'job.created' },
            'edit webhooks',
          ],
          [`/dashboard/webhooks/${ws.webhookId}/pause`, {}, 'pause webhooks'],
          [`/dashboard/webhooks/${ws.webhookId}/resume`, {}, 'resume webhooks'],
          [`/dashboard/webhooks/${ws.webhookId}/delete`, {}, 'delete webhooks'],
          [`/dashboard/webhooks/${ws.webhookId}/rotate-secret`, {}, 'rotate webhook secrets'],
          [`/dashboard/webhooks/${ws.webhookId}/test`, {}, 'send test events'],
          [`/dashboard/webhooks/${ws.webhookId}/recover`, { since: '2026-01-01T00:00' }, 'recover deliveries'],
          [`/dashboard/webhooks/${ws.webhookId}/deliveries/msg_x/resend`, {}, 'resend deliveries'],
        ];
        for (const [path, form, doing] of posts) {
          const res = await dashboard(t, 'POST', path, { cookie, form: { _csrf: csrf, ...form } });
          expect({ role, path, status: res.status }).toEqual({ role, path, status: 403 });
          expect(res.html).toContain(`Your role does not allow you to ${doing}.`);
        }
      }
      const hook = await t.request('GET', `/v1/webhooks/${ws.webhookId}`, { token: ws.secret });
      expect(hook.body).toMatchObject({ name: 'Hook roles hook', status: 'active', event_types: ['project.created'] });
      expect(hook.body.updated).toBe(hook.body.created);
      const all = await t.request('GET', '/v1/webhooks', { token: ws.secret });
      expect((all.body.webhooks as unknown[]).length).toBe(1);

      for (const role of ['root', 'project_manager']) {
        const cookie = await signIn(t, ws.workspaceId, ws.members[role]);
        const list = await dashboard(t, 'GET', '/dashboard/webhooks', { cookie });
        expect(list.html).toContain('Create a webhook');
        for (const page of ['', '/edit', '/delete', '/rotate-secret']) {
          const res = await dashboard(t, 'GET', `/dashboard/webhooks/${ws.webhookId}${page}`, { cookie });
          expect({ role, page, status: res.status }).toEqual({ role, page, status: 200 });
        }
        const id = await createWebhook(t, cookie, `made by ${role}`);
        const csrf = csrfOf(list.html);
        const paused = await dashboard(t, 'POST', `/dashboard/webhooks/${id}/pause`, { cookie, form: { _csrf: csrf } });
        expect(paused).toMatchObject({ status: 303 });
        expect(paused.headers.get('location')).toBe(`/dashboard/webhooks/${id}?notice=paused`);
        const rotated = await dashboard(t, 'POST', `/dashboard/webhooks/${id}/rotate-secret`, {
          cookie,
          form: { _csrf: csrf },
        });
        expect(rotated.status).toBe(200);
        expect(rotated.html).toMatch(/value="whsec_[A-Za-z0-9+/=]+"/);
        const deleted = await dashboard(t, 'POST', `/dashboard/webhooks/${id}/delete`, {
          cookie,
          form: { _csrf: csrf },
        });
        expect(deleted.headers.get('location')).toBe('/dashboard/webhooks?notice=deleted');
        expect((await t.request('GET', `/v1/webhooks/${id}`, { token: ws.secret })).status).toBe(404);
      }
    });

    it('shows the commands’ validation errors next to their field, never a 5xx', async () => {
      const ws = await workspaceWithKey(t, 'Hook forms');
      const page = await dashboard(t, 'GET', '/dashboard/webhooks', { cookie: ws.root });
      const csrf = csrfOf(page.html);
      const cases: Array<[string, Record<string, string>, string, string]> = [
        [
          'non-https',
          { name: 'Plain', url: 'http://93.184.216.34/x', event_types: 'job.created' },
          'webhook-url-error',
          'url must start with https://',
        ],
        [
          'not a URL',
          { name: 'Broken', url: 'https://exa mple.com/x', event_types: 'job.created' },
          'webhook-url-error',
          'url must be a valid URL',
        ],
        [
          'private target',
          { name: 'Inside', url: 'https://127.0.0.1/x', event_types: 'job.created' },
          'webhook-url-error',
          'url must not point to a private, loopback, link-local or otherwise internal address',
        ],
        [
          'short name',
          { name: 'x', url: HOOK_URL, event_types: 'job.created' },
          'webhook-name-error',
          'name must be between 2 and 100 characters',
        ],
        [
          'no event types',
          { name: 'Nothing', url: HOOK_URL },
          'webhook-events-error',
          'event_types is required and must include at least one of',
        ],
        [
          'unknown event type',
          { name: 'Odd', url: HOOK_URL, event_types: 'job_type.updated' },
          'webhook-events-error',
          'Invalid event type: job_type.updated',
        ],
      ];
      for (const [what, form, id, message] of cases) {
        const res = await dashboard(t, 'POST', '/dashboard/webhooks', {
          cookie: ws.root,
          form: { _csrf: csrf, ...form },
        });
        expect({ what, status: res.status }).toEqual({ what, status: 400 });
        expect(res.html).toMatch(
          new RegExp(`<p class="field-error" id="${id}">${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
        );
        expect(res.html).toContain(`aria-describedby="${id}"`);
        // What was typed is kept.
        if (form.url) expect(res.html).toContain(`value="${form.url}"`);
      }
      const edit = await dashboard(t, 'POST', `/dashboard/webhooks/${ws.webhookId}/edit`, {
        cookie: ws.root,
        form: { _csrf: csrf, name: 'Hook forms hook', url: 'http://93.184.216.34/x', event_types: 'project.created' },
      });
      expect(edit.status).toBe(400);
      expect(edit.html).toContain(
        '<p class="field-error" id="webhook-url-error">url must be a string starting with https://',
      );
      const noTypes = await dashboard(t, 'POST', `/dashboard/webhooks/${ws.webhookId}/edit`, {
        cookie: ws.root,
        form: { _csrf: csrf, name: 'Hook forms hook', url: HOOK_URL },
      });
      expect(noTypes.status).toBe(400);
      expect(noTypes.html).toContain('id="webhook-events-error"');
      for (const [since, message] of [
        ['yesterday', 'Enter a date and time (UTC), as YYYY-MM-DDTHH:MM'],
        ['2026-02-30T10:00', 'Enter a date and time (UTC), as YYYY-MM-DDTHH:MM'],
        ['2999-01-01T00:00', 'The time must not be in the future'],
      ]) {
        const res = await dashboard(t, 'POST', `/dashboard/webhooks/${ws.webhookId}/recover`, {
          cookie: ws.root,
          form: { _csrf: csrf, since },
        });
        expect({ since, status: res.status }).toEqual({ since, status: 400 });
        expect(res.html).toContain(`<p class="field-error" id="recover-since-error" role="alert">${message}</p>`);
      }
      // A valid time: the count queued is said on the page; a delivery the webhook does not have is not found.
      const recovered = await dashboard(t, 'POST', `/dashboard/webhooks/${ws.webhookId}/recover`, {
        cookie: ws.root,
        form: { _csrf: csrf, since: '2026-01-01T00:00' },
      });
      expect(recovered.status).toBe(303);
      const after = await dashboard(t, 'GET', recovered.headers.get('location')!, { cookie: ws.root });
      expect(after.html).toContain('0 failed deliveries are queued again.');
      const missing = await dashboard(t, 'POST', `/dashboard/webhooks/${ws.webhookId}/deliveries/msg_x/resend`, {
        cookie: ws.root,
        form: { _csrf: csrf },
      });
      expect(missing.status).toBe(404);
      expect(missing.html).toContain('Delivery not found');
      // A paused webhook cannot recover: said on the form too.
      await dashboard(t, 'POST', `/dashboard/webhooks/${ws.webhookId}/pause`, {
        cookie: ws.root,
        form: { _csrf: csrf },
      });
      const paused = await dashboard(t, 'POST', `/dashboard/webhooks/${ws.webhookId}/recover`, {
        cookie: ws.root,
        form: { _csrf: csrf, since: '2026-01-01T00:00' },
      });
      expect(paused.status).toBe(409);
      expect(paused.html).toContain('id="recover-since-error"');
      expect(paused.html).toContain('Webhook is paused');
      const resend = await dashboard(t, 'POST', `/dashboard/webhooks/${ws.webhookId}/deliveries/msg_x/resend`, {
        cookie: ws.root,
        form: { _csrf: csrf },
      });
      expect(resend.status).toBe(409);
      expect(resend.html).toContain('Webhook is paused; set its status to active before resending a delivery');
      const list = await t.request('GET', '/v1/webhooks', { token: ws.secret });
      expect((list.body.webhooks as unknown[]).length).toBe(1);
    });
  });

  describe('audit trail', () => {
    it('is read by root, project managers and ops leads only, and offered in the navigation to them alone', async () => {
      const ws = await workspaceWithMembers(t, 'Audit roles', [
        'root',
        'project_manager',
        'ops_lead',
        'pilot',
        'client',
      ]);
      for (const role of ['root', 'project_manager', 'ops_lead', 'pilot', 'client']) {
        const cookie = await signIn(t, ws.workspaceId, ws.members[role]);
        const trail = await dashboard(t, 'GET', '/dashboard/audit', { cookie });
        const exported = await dashboard(t, 'GET', '/dashboard/audit/export', { cookie });
        const team = await dashboard(t, 'GET', '/dashboard/team', { cookie });
        const allowed = ['root', 'project_manager', 'ops_lead'].includes(role);
        expect({
          role,
          trail: trail.status,
          exported: exported.status,
          nav: team.html.includes('href="/dashboard/audit"'),
        }).toEqual({
          role,
          trail: allowed ? 200 : 403,
          exported: allowed ? 200 : 403,
          nav: allowed,
        });
        if (!allowed) expect(trail.html).toContain('Your role does not allow you to see the audit trail');
      }
    });

    it("of one workspace never shows nor exports another's events, whatever the filters name", async () => {
      const a = await workspaceWithKey(t, 'Audit A');
      const b = await workspaceWithKey(t, 'Audit B');
      const trail = await dashboard(t, 'GET', '/dashboard/audit', { cookie: a.root });
      expect(trail.status).toBe(200);
      expect(trail.html).toContain('workspace.api_key_created');
      const exported = await dashboard(t, 'GET', '/dashboard/audit/export', { cookie: a.root });
      expect(exported.headers.get('content-type')).toMatch(/application\/x-ndjson/);
      expect(exported.headers.get('content-disposition')).toBe(`attachment; filename="audit-${a.workspaceId}.ndjson"`);
      const lines = exported.html
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.length).toBeGreaterThan(3);
      expect(lines.every((l: { metadata: { workspaceId: string } }) => l.metadata.workspaceId === a.workspaceId)).toBe(
        true,
      );
      for (const page of [trail, exported]) {
        for (const foreign of [b.workspaceId, b.keyId, b.webhookId]) expect(page.html).not.toContain(foreign);
      }
      // Another workspace's key, or a workspace parameter, is nobody this trail knows.
      for (const query of [`actor=${b.keyId}`, `actor=${b.members.root}`]) {
        for (const path of ['/dashboard/audit', '/dashboard/audit/export']) {
          const refused = await dashboard(t, 'GET', `${path}?${query}`, { cookie: a.root });
          expect({ path, query, status: refused.status }).toEqual({ path, query, status: 400 });
          expect(refused.html).toContain('Choose someone from the list');
          expect(refused.html).not.toContain(b.keyId);
        }
      }
      const scoped = await dashboard(t, 'GET', `/dashboard/audit?workspace=${b.workspaceId}`, { cookie: a.root });
      expect(scoped.status).toBe(200);
      expect(scoped.html).not.toContain(b.webhookId);
    });

    it('refuses a bad filter next to its field, never a 5xx', async () => {
      const ws = await workspaceWithMembers(t, 'Audit filters', ['root']);
      const cookie = await signIn(t, ws.workspaceId, ws.members.root);
      const cases: [string, string][] = [
        ['type=nope.nothing', 'audit-type-error'],
        ['from=yesterday', 'audit-from-error'],
        ['to=2026-02-30T10:00', 'audit-to-error'],
        ['from=2026-02-02T10:00&to=2026-02-01T10:00', 'audit-to-error'],
      ];
      for (const [query, id] of cases) {
        const page = await dashboard(t, 'GET', `/dashboard/audit?${query}`, { cookie });
        expect({ query, status: page.status, marked: page.html.includes(`id="${id}"`) }).toEqual({
          query,
          status: 400,
          marked: true,
        });
      }
    });
  });

  describe('workspaces', () => {
    it('a session of one workspace reads and changes nothing of another, on every dashboard route, both ways', async () => {
      const a = await workspaceWithKey(t, 'Alpha');
      const b = await workspaceWithKey(t, 'Bravo');
      const emailsOf = async (ws: typeof a) => {
        const team = await t.request('GET', '/v1/team', { token: ws.secret });
        return (team.body.team as Array<{ email: string }>).map((m) => m.email);
      };

      for (const [self, other] of [
        [a, b],
        [b, a],
      ]) {
        const foreign = [
          other.workspaceId,
          other.keyId,
          other.webhookId,
          `${other === a ? 'Alpha' : 'Bravo'} deploy bot`,
          `${other === a ? 'Alpha' : 'Bravo'} hook`,
          `${other === a ? 'Alpha' : 'Bravo'} project`,
          `${other === a ? 'Alpha' : 'Bravo'} job`,
          other.projectId,
          other.jobId,
          ...(await emailsOf(other)),
        ];
        const pages: PageResult[] = [];
        const csrf = csrfOf((await dashboard(t, 'GET', '/dashboard/team', { cookie: self.root })).html);
        for (const route of DASHBOARD_ROUTES) {
          const path = route.path
            .replace(':keyId', other.keyId)
            .replace(':webhookId', other.webhookId)
            .replace(':deliveryId', 'msg_x')
            .replace(':projectId', other.projectId)
            .replace(':jobId', other.jobId)
            .replace(':name', 'dashboard.css');
          const form =
            route.method === 'POST' && route.path !== '/dashboard/sign-out'
              ? {
                  _csrf: csrf,
                  name: 'x',
                  scope: 'read_only',
                  url: HOOK_URL,
                  event_types: 'job.created',
                  since: '2026-01-01T00:00',
                }
              : undefined;
          if (route.path === '/dashboard/sign-out' || route.path === '/dashboard/sign-in') continue;
          const res = await dashboard(t, route.method as 'GET' | 'POST', path, { cookie: self.root, form });
          pages.push(res);
          if (['keyId', 'webhookId', 'projectId', 'jobId'].some((p) => route.params.includes(p))) {
            expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({
              route: `${route.method} ${route.path}`,
              status: 404,
            });
          }
        }
        for (const page of pages) for (const text of foreign) expect(page.html).not.toContain(text);
        // The other workspace's key was not deactivated, its webhook not changed nor deleted.
        expect((await t.request('GET', '/v1/projects', { token: other.secret })).status).toBe(200);
        const hook = await t.request('GET', `/v1/webhooks/${other.webhookId}`, { token: other.secret });
        expect(hook.status).toBe(200);
        expect(hook.body).toMatchObject({ status: 'active', event_types: ['project.created'] });
        expect(hook.body.updated).toBe(hook.body.created);
      }
    });
  });

  it('every dashboard response carries the Content-Security-Policy and the other security headers', async () => {
    const ws = await workspaceWithKey(t, 'Headers');
    const link = await mintLink(t, ws.workspaceId, ws.members.pilot);
    const keys = await dashboard(t, 'GET', '/dashboard/api-keys', { cookie: ws.root });
    const css = /href="([^"]+\.css[^"]*)"/.exec(keys.html)![1];
    const js = /src="([^"]+\.js[^"]*)"/.exec(keys.html)![1];
    const responses: Array<[string, PageResult]> = [
      ['home', await dashboard(t, 'GET', '/dashboard')],
      ['home signed in (redirect)', await dashboard(t, 'GET', '/dashboard', { cookie: ws.root })],
      ['sign-in page', await dashboard(t, 'GET', new URL(link.url).pathname + new URL(link.url).search)],
      ['refused link', await dashboard(t, 'GET', '/dashboard/sign-in')],
      ['keys', keys],
      ['team', await dashboard(t, 'GET', '/dashboard/team', { cookie: ws.root })],
      ['audit trail', await dashboard(t, 'GET', '/dashboard/audit', { cookie: ws.root })],
      ['audit export', await dashboard(t, 'GET', '/dashboard/audit/export', { cookie: ws.root })],
      ['webhooks', await dashboard(t, 'GET', '/dashboard/webhooks', { cookie: ws.root })],
      ['a webhook', await dashboard(t, 'GET', `/dashboard/webhooks/${ws.webhookId}`, { cookie: ws.root })],
      ['webhook edit', await dashboard(t, 'GET', `/dashboard/webhooks/${ws.webhookId}/edit`, { cookie: ws.root })],
      [
        'webhook deletion',
        await dashboard(t, 'GET', `/dashboard/webhooks/${ws.webhookId}/delete`, { cookie: ws.root }),
      ],
      ['confirmation', await dashboard(t, 'GET', `/dashboard/api-keys/${ws.keyId}/deactivate`, { cookie: ws.root })],
      ['not found', await dashboard(t, 'GET', '/dashboard/api-keys/key_nope/deactivate', { cookie: ws.root })],
      ['projects', await dashboard(t, 'GET', '/dashboard/projects', { cookie: ws.root })],
      ['a project', await dashboard(t, 'GET', `/dashboard/projects/${ws.projectId}`, { cookie: ws.root })],
      ['a job', await dashboard(t, 'GET', `/dashboard/projects/${ws.projectId}/jobs/${ws.jobId}`, { cookie: ws.root })],
      ['status names', await dashboard(t, 'GET', '/dashboard/settings/statuses', { cookie: ws.root })],
      ['signed out', await dashboard(t, 'GET', '/dashboard/team')],
      ['no such page', await dashboard(t, 'GET', '/dashboard/nothing/here', { cookie: ws.root })],
      ['stylesheet', await dashboard(t, 'GET', css)],
      ['script', await dashboard(t, 'GET', js)],
    ];
    for (const [what, res] of responses) {
      expect({ what, csp: res.headers.get('content-security-policy') }).toEqual({ what, csp: CSP });
      expect({ what, nosniff: res.headers.get('x-content-type-options') }).toEqual({ what, nosniff: 'nosniff' });
      expect({ what, frame: res.headers.get('x-frame-options') }).toEqual({ what, frame: 'DENY' });
      expect({ what, referrer: res.headers.get('referrer-policy') }).toEqual({ what, referrer: 'no-referrer' });
    }
    for (const [what, res] of responses.filter(([, r]) => /text\/html/.test(r.headers.get('content-type') ?? ''))) {
      expect({ what, cache: res.headers.get('cache-control') }).toEqual({ what, cache: 'no-store' });
      // No inline script or style anywhere: the policy would block it.
      expect(res.html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/i);
    }
  });

  it('escapes what members and the operator typed', async () => {
    const ws = await workspaceWithMembers(t, '<script>alert(1)</script>', ['root']);
    const cookie = await signIn(t, ws.workspaceId, ws.members.root);
    const page = await dashboard(t, 'GET', '/dashboard/api-keys', { cookie });
    const created = await dashboard(t, 'POST', '/dashboard/api-keys', {
      cookie,
      form: { _csrf: csrfOf(page.html), name: '"><img src=x onerror=alert(1)>', scope: 'read_only' },
    });
    expect(created.status).toBe(201);
    const list = await dashboard(t, 'GET', '/dashboard/api-keys', { cookie });
    for (const html of [page.html, created.html, list.html]) {
      expect(html).not.toContain('<script>alert(1)</script>');
      expect(html).not.toContain('<img src=x');
    }
    expect(list.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');

    const hookId = await createWebhook(t, cookie, '"><img src=x onerror=alert(1)>');
    const hooks = await dashboard(t, 'GET', '/dashboard/webhooks', { cookie });
    const hook = await dashboard(t, 'GET', `/dashboard/webhooks/${hookId}`, { cookie });
    const edit = await dashboard(t, 'GET', `/dashboard/webhooks/${hookId}/edit`, { cookie });
    for (const html of [hooks.html, hook.html, edit.html]) {
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    }
  });
});

describe('Dashboard links behind a proxy and with PUBLIC_URL', () => {
  it('take PUBLIC_URL as their base', async () => {
    const t = await TestApp.start({ PUBLIC_URL: 'https://ops.example.com/' });
    try {
      const ws = await workspaceWithMembers(t, 'Public URL', ['root']);
      const link = await mintLink(t, ws.workspaceId, ws.members.root);
      expect(link.url).toMatch(/^https:\/\/ops\.example\.com\/dashboard\/sign-in\?token=[A-Za-z0-9_-]{43}$/);
    } finally {
      await t.stop();
    }
  });

  it('follow the forwarded protocol and host of a trusted proxy, and the cookie is Secure over its TLS', async () => {
    const t = await TestApp.start({ TRUST_PROXY: 'loopback' });
    try {
      const ws = await workspaceWithMembers(t, 'Proxy', ['root']);
      const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'dash.example.com' };
      const res = await t.admin(
        'POST',
        `/workspaces/${ws.workspaceId}/members/${ws.members.root}/dashboard-links`,
        undefined,
        forwarded,
      );
      expect(res.body.url).toMatch(/^https:\/\/dash\.example\.com\/dashboard\/sign-in\?token=/);

      const signedIn = await dashboard(t, 'POST', '/dashboard/sign-in', {
        form: { token: tokenOf(res.body.url) },
        headers: forwarded,
      });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('set-cookie')).toMatch(/; Secure$/);
    } finally {
      await t.stop();
    }
  });

  it('ignore forwarded headers from a proxy that is not trusted', async () => {
    const t = await TestApp.start();
    try {
      const ws = await workspaceWithMembers(t, 'No proxy', ['root']);
      const res = await t.admin(
        'POST',
        `/workspaces/${ws.workspaceId}/members/${ws.members.root}/dashboard-links`,
        undefined,
        { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example.com' },
      );
      expect(res.body.url.startsWith(`${t.baseUrl}/dashboard/sign-in?token=`)).toBe(true);
    } finally {
      await t.stop();
    }
  });

  it('stop working once their lifetime is over (DASHBOARD_LINK_TTL_SECONDS)', async () => {
    const t = await TestApp.start({ DASHBOARD_LINK_TTL_SECONDS: '1' });
    try {
      const ws = await workspaceWithMembers(t, 'Expiry', ['root']);
      const link = await mintLink(t, ws.workspaceId, ws.members.root);
      await new Promise((r) => setTimeout(r, 1100));
      const refused = await dashboard(t, 'POST', '/dashboard/sign-in', { form: { token: tokenOf(link.url) } });
      expect(refused.status).toBe(400);
      expect(refused.html).toContain('has expired or has already been used');
      expect(sessionSet(refused)).toBeUndefined();
    } finally {
      await t.stop();
    }
  });
});
