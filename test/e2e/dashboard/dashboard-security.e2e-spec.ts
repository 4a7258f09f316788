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
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

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
  return { ...ws, root, secret, keyId };
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
      expect((await t.request('GET', '/v1/projects', { token: a.secret })).status).toBe(200);
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
          `${other === a ? 'Alpha' : 'Bravo'} deploy bot`,
          ...(await emailsOf(other)),
        ];
        const pages: PageResult[] = [];
        const csrf = csrfOf((await dashboard(t, 'GET', '/dashboard/team', { cookie: self.root })).html);
        for (const route of DASHBOARD_ROUTES) {
          const path = route.path.replace(':keyId', other.keyId).replace(':name', 'dashboard.css');
          const form =
            route.method === 'POST' && route.path !== '/dashboard/sign-out'
              ? { _csrf: csrf, name: 'x', scope: 'read_only' }
              : undefined;
          if (route.path === '/dashboard/sign-out' || route.path === '/dashboard/sign-in') continue;
          const res = await dashboard(t, route.method as 'GET' | 'POST', path, { cookie: self.root, form });
          pages.push(res);
          if (route.params.includes('keyId')) {
            expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({
              route: `${route.method} ${route.path}`,
              status: 404,
            });
          }
        }
        for (const page of pages) for (const text of foreign) expect(page.html).not.toContain(text);
        // The other workspace's key was not deactivated.
        expect((await t.request('GET', '/v1/projects', { token: other.secret })).status).toBe(200);
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
      ['confirmation', await dashboard(t, 'GET', `/dashboard/api-keys/${ws.keyId}/deactivate`, { cookie: ws.root })],
      ['not found', await dashboard(t, 'GET', '/dashboard/api-keys/key_nope/deactivate', { cookie: ws.root })],
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
