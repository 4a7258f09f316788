import { csrfOf, dashboard, signIn as dashboardSignIn, workspaceWithMembers } from '../../support/dashboard';
import { ADMIN_TOKEN, useTestApp } from '../../support/test-app';

interface Page {
  status: number;
  headers: Headers;
  html: string;
}

describe('The operator console (docs/console.md)', () => {
  const t = useTestApp();

  /** A request as a browser on the console's own pages sends it. */
  async function page(
    method: 'GET' | 'POST',
    path: string,
    options: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.cookie) headers.cookie = `console_session=${options.cookie}`;
    if (method === 'POST') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['sec-fetch-site'] ??= 'same-origin';
    }
    const response = await fetch(`${t.baseUrl}${path}`, {
      method,
      headers,
      body: options.form ? new URLSearchParams(options.form).toString() : method === 'POST' ? '' : undefined,
      redirect: 'manual',
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  const cookieSet = (p: Page) => /console_session=([^;]*)/.exec(p.headers.get('set-cookie') ?? '')?.[1] || undefined;

  async function signIn(token: string): Promise<string> {
    const posted = await page('POST', '/console/sign-in', { form: { token } });
    const cookie = cookieSet(posted);
    if (posted.status !== 303 || !cookie) throw new Error(`sign-in: ${posted.status} ${posted.html}`);
    return cookie;
  }

  const credential = async (role: 'operator' | 'auditor') =>
    (await t.admin('POST', '/operators', { name: `Console ${role}`, role })).body as { id: string; token: string };

  it('signs in with a typed credential into a session cookie of its own, shows the role, and signs out', async () => {
    const home = await page('GET', '/console');
    expect(home.status).toBe(200);
    expect(home.html).toContain('<form method="post" action="/console/sign-in"');
    expect(home.headers.get('content-security-policy')).toContain("script-src 'self'");

    const refused = await page('POST', '/console/sign-in', { form: { token: 'wrong' } });
    expect(refused.status).toBe(401);
    expect(cookieSet(refused)).toBeUndefined();

    const posted = await page('POST', '/console/sign-in', { form: { token: ADMIN_TOKEN } });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/console/workspaces');
    expect(posted.headers.get('set-cookie')).toMatch(
      /^console_session=[A-Za-z0-9_-]{43}; Path=\/console; Max-Age=28800; HttpOnly; SameSite=Strict$/,
    );
    const cookie = cookieSet(posted)!;

    const list = await page('GET', '/console/workspaces', { cookie });
    expect(list.status).toBe(200);
    expect(list.html).toContain('Signed in as <strong>ADMIN_TOKEN</strong>');
    expect(list.html).toContain('data-role="operator"');

    const out = await page('POST', '/console/sign-out', { cookie, form: { _csrf: csrfOf(list.html) } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toContain('console_session=; Path=/console; Max-Age=0');
    expect((await page('GET', '/console/workspaces', { cookie })).status).toBe(401);
  });

  it('lets an operator search, create a workspace, change its plan and limit, and mint a dashboard link shown once', async () => {
    const { workspaceId, members } = await workspaceWithMembers(t, 'Console Harbour', ['root']);
    const operator = await credential('operator');
    const cookie = await signIn(operator.token);

    const search = await page('GET', '/console/workspaces?q=harbour', { cookie });
    expect(search.html).toContain(`href="/console/workspaces/${workspaceId}"`);
    const csrf = csrfOf(search.html);

    const created = await page('POST', '/console/workspaces', {
      cookie,
      form: { _csrf: csrf, name: 'Made in the console', plan: 'pro', project_limit: '7' },
    });
    expect(created.status).toBe(303);
    const createdId = /\/console\/workspaces\/([^?]+)\?created=1/.exec(created.headers.get('location') ?? '')![1];
    expect((await t.admin('GET', `/workspaces/${createdId}`)).body).toMatchObject({ plan: 'pro', project_limit: 7 });
    const events = (await t.admin('GET', `/events/export?workspace_id=${createdId}`)).text;
    expect(events).toContain(`"actor":{"type":"operator","id":"${operator.id}"}`);

    const updated = await page('POST', `/console/workspaces/${createdId}`, {
      cookie,
      form: { _csrf: csrf, plan: 'enterprise', project_limit: '' },
    });
    expect(updated.status).toBe(303);
    expect((await t.admin('GET', `/workspaces/${createdId}`)).body).toMatchObject({
      plan: 'enterprise',
      project_limit: null,
    });
    const invalid = await page('POST', `/console/workspaces/${createdId}`, {
      cookie,
      form: { _csrf: csrf, plan: 'gold' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.html).toContain('plan must be one of: free, pro, enterprise');

    const wsPage = await page('GET', `/console/workspaces/${workspaceId}`, { cookie });
    expect(wsPage.html).toContain('Mint dashboard link');
    const minted = await page('POST', `/console/workspaces/${workspaceId}/members/${members.root}/dashboard-link`, {
      cookie,
      form: { _csrf: csrf },
    });
    expect(minted.status).toBe(201);
    const link = /value="(http[^"]+\/dashboard\/sign-in\?token=[A-Za-z0-9_-]{43})"/.exec(minted.html)![1];
    expect(minted.headers.get('cache-control')).toBe('no-store');
    expect((await dashboard(t, 'GET', new URL(link).pathname + new URL(link).search)).status).toBe(200);
  });

  it('shows an auditor no write control and refuses every write it posts with 403', async () => {
    const { workspaceId, members } = await workspaceWithMembers(t, 'Audited', ['root']);
    const cookie = await signIn((await credential('auditor')).token);
    const list = await page('GET', '/console/workspaces', { cookie });
    expect(list.html).toContain('data-role="auditor"');
    expect(list.html).not.toContain('action="/console/workspaces" class="form-grid"');
    const wsPage = await page('GET', `/console/workspaces/${workspaceId}`, { cookie });
    expect(wsPage.status).toBe(200);
    expect(wsPage.html).not.toContain('Mint dashboard link');
    expect(wsPage.html).not.toContain('Change plan and limit');
    const csrf = csrfOf(list.html);

    const writes: [string, Record<string, string>][] = [
      ['/console/workspaces', { name: 'Nope', plan: 'free' }],
      [`/console/workspaces/${workspaceId}`, { plan: 'free' }],
      [`/console/workspaces/${workspaceId}/members/${members.root}/dashboard-link`, {}],
    ];
    for (const [path, form] of writes) {
      const res = await page('POST', path, { cookie, form: { _csrf: csrf, ...form } });
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
    expect((await t.admin('GET', `/workspaces/${workspaceId}`)).body.plan).toBe('enterprise');
  });

  it('ends a session at once when its credential is revoked', async () => {
    const operator = await credential('operator');
    const cookie = await signIn(operator.token);
    expect((await page('GET', '/console/workspaces', { cookie })).status).toBe(200);
    await t.admin('POST', `/operators/${operator.id}/revoke`);
    expect((await page('GET', '/console/workspaces', { cookie })).status).toBe(401);
    expect((await page('POST', '/console/sign-in', { form: { token: operator.token } })).status).toBe(401);
  });

  it('refuses forms without the session CSRF token or from another site', async () => {
    const cookie = await signIn(ADMIN_TOKEN);
    const list = await page('GET', '/console/workspaces', { cookie });
    expect((await page('POST', '/console/workspaces', { cookie, form: { name: 'x', plan: 'free' } })).status).toBe(403);
    expect(
      (
        await page('POST', '/console/workspaces', {
          cookie,
          form: { _csrf: csrfOf(list.html), name: 'x', plan: 'free' },
          headers: { 'sec-fetch-site': 'cross-site' },
        })
      ).status,
    ).toBe(403);
  });

  it('takes no bearer token, API key or dashboard session, and its session means nothing to the dashboard or the API', async () => {
    const ws = await t.provision();
    const bearer = await fetch(`${t.baseUrl}/console/workspaces`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(bearer.status).toBe(401);
    // An API key, sent or typed, is refused as on the operator API.
    for (const path of ['/console', '/console/workspaces', '/console/nowhere']) {
      const res = await page('GET', path, { headers: { authorization: `Bearer ${ws.fullKey}` } });
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expect(res.html).toContain('api_key_path_not_allowed');
    }
    const typed = await page('POST', '/console/sign-in', { form: { token: ws.readKey } });
    expect(typed.status).toBe(403);
    expect(typed.html).toContain('api_key_path_not_allowed');
    const { workspaceId, members } = await workspaceWithMembers(t, 'Both', ['root']);
    const dashboardCookie = await dashboardSignIn(t, workspaceId, members.root);
    expect((await page('GET', '/console/workspaces', { cookie: dashboardCookie })).status).toBe(401);
    const consoleCookie = await signIn(ADMIN_TOKEN);
    expect((await dashboard(t, 'GET', '/dashboard/api-keys', { cookie: consoleCookie })).status).toBe(401);
    expect((await page('GET', '/console/workspaces', { cookie: consoleCookie })).status).toBe(200);
    const api = await fetch(`${t.baseUrl}/v1/admin/workspaces`, {
      headers: { cookie: `console_session=${consoleCookie}` },
    });
    expect(api.status).toBe(403);
    expect((await page('GET', '/console/nowhere', { cookie: consoleCookie })).status).toBe(404);
  });
});
