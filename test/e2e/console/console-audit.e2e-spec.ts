import { useProvisionedApp } from '../../support/test-app';

interface Page {
  status: number;
  headers: Headers;
  html: string;
}

/** The console's audit views (docs/console.md, Audit views) on the real service over HTTP. */
describe("The console's audit views", () => {
  const { t, keys } = useProvisionedApp();
  const REQUEST = 'req-console-audit-1';
  let projectId: string;
  let auditor: string;

  async function page(path: string, cookie?: string, headers: Record<string, string> = {}): Promise<Page> {
    const response = await fetch(`${t.baseUrl}${path}`, {
      headers: { ...headers, ...(cookie ? { cookie: `console_session=${cookie}` } : {}) },
      redirect: 'manual',
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  async function signIn(token: string): Promise<string> {
    const response = await fetch(`${t.baseUrl}/console/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ token }).toString(),
      redirect: 'manual',
    });
    const cookie = /console_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
    if (response.status !== 303 || !cookie) throw new Error(`sign-in: ${response.status}`);
    return cookie;
  }

  const rows = (html: string) => html.split('<tbody>')[1]?.split('</tbody>')[0].split('<tr>').slice(1) ?? [];

  beforeAll(async () => {
    const created = await t.request('POST', '/v1/projects', {
      token: keys.fullKey,
      body: { name: 'Dam survey', description: 'd', status: 'draft', start_date: '2026-01-01' },
      headers: { 'x-request-id': REQUEST },
    });
    expect(created.status).toBe(201);
    projectId = created.body.id;
    const renamed = await t.request('PATCH', `/v1/projects/${projectId}`, {
      token: keys.fullKey,
      body: { name: 'Dam survey, north' },
    });
    expect(renamed.status).toBe(200);
    const credential = await t.admin('POST', '/operators', { name: 'Console auditor', role: 'auditor' });
    auditor = await signIn(credential.body.token);
  });

  it('shows the feed newest first with links to each request and timeline, filtered by actor and time', async () => {
    const feed = await page('/console/events', auditor);
    expect(feed.status).toBe(200);
    expect(feed.html).toContain('href="/console/events" aria-current="page"');
    const [newest] = rows(feed.html);
    expect(newest).toContain('project.updated');
    expect(newest).toContain(`href="/console/streams/project-${projectId}?revision=1"`);

    const byKey = await page(`/console/events?actor=${keys.fullKeyId}&from=2000-01-01T00:00`, auditor);
    expect(rows(byKey.html).length).toBeGreaterThanOrEqual(3);
    expect(rows(byKey.html).every((row) => row.includes(keys.fullKeyId))).toBe(true);
    expect(byKey.html).toContain(`href="/console/requests/${REQUEST}"`);

    const later = await page(`/console/events?actor=${keys.fullKeyId}&from=2999-01-01T00:00`, auditor);
    expect(later.html).toContain('No events match.');
  });

  it('names the field of a bad filter with a 400 page', async () => {
    const bad = await page('/console/events?actor=somebody&from=yesterday', auditor);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Who (actor) must be operator');
    expect(bad.html).toContain('From (from) must be a date and time');
    expect(bad.html).toContain('aria-invalid="true"');
  });

  it('follows one request across every stream it touched', async () => {
    const request = await page(`/console/requests/${REQUEST}`, auditor);
    expect(request.status).toBe(200);
    expect(request.html).toContain(`<code class="wrap">project-${projectId}</code>`);
    expect(request.html).toContain(`<code class="wrap">workspace-${keys.workspaceId}</code>`);
    expect(request.html).toContain('project.created');
    expect(request.html).toContain('workspace.project_slot_reserved');
    expect(request.html).toContain(`href="/console/events/export?request_id=${REQUEST}"`);
  });

  it("shows a project's timeline with each revision's diff, and its state as of an earlier revision", async () => {
    const latest = await page(`/console/streams/project-${projectId}`, auditor);
    expect(latest.status).toBe(200);
    expect(latest.html).toContain('State as of revision 1 (the latest)');
    expect(latest.html).toMatch(
      /<code>fields\.name<\/code><\/th><td data-label="Before">Dam survey<\/td><td data-label="After">Dam survey, north<\/td>/,
    );

    const earlier = await page(`/console/streams/project-${projectId}?revision=0`, auditor);
    expect(earlier.html).toContain('State as of revision 0</h2>');
    const state = earlier.html.split('id="state">')[1].split('</dl>')[0];
    expect(state).toContain('<dd>Dam survey</dd>');
    expect(state).not.toContain('north');

    expect((await page(`/console/streams/project-${projectId}?revision=7`, auditor)).status).toBe(400);
    expect((await page(`/console/streams/project-${projectId}?revision=x`, auditor)).status).toBe(400);
    expect((await page('/console/streams/project-prj_none', auditor)).status).toBe(404);
    expect((await page('/console/streams/ledger-1', auditor)).status).toBe(400);
  });

  it('exports a filtered view as NDJSON, resumable after the last position received', async () => {
    const all = await page(`/console/events/export?workspace=${keys.workspaceId}`, auditor);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toContain('application/x-ndjson');
    expect(all.headers.get('content-disposition')).toBe(`attachment; filename="events-${keys.workspaceId}.ndjson"`);
    const lines = all.html
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { position: number; type: string });
    expect(lines.length).toBeGreaterThanOrEqual(4);

    const resumed = await page(
      `/console/events/export?workspace=${keys.workspaceId}&after=${lines[1].position}`,
      auditor,
    );
    expect(
      resumed.html
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).position),
    ).toEqual(lines.slice(2).map((l) => l.position));

    const stream = await page(`/console/events/export?stream=project-${projectId}`, auditor);
    expect(
      stream.html
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).type),
    ).toEqual(['project.created', 'project.updated']);
    const request = await page(`/console/events/export?request_id=${REQUEST}`, auditor);
    expect(
      new Set(
        request.html
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).metadata.requestId),
      ),
    ).toEqual(new Set([REQUEST]));
    expect((await page('/console/events/export?after=-1', auditor)).status).toBe(400);
  });

  it('needs a console session, refuses an API key, and offers no write control on any audit screen', async () => {
    for (const path of [
      '/console/events',
      `/console/requests/${REQUEST}`,
      `/console/streams/project-${projectId}`,
      '/console/events/export?type=project.created',
    ]) {
      expect((await page(path)).status).toBe(401);
      const keyed = await page(path, undefined, { authorization: `Bearer ${keys.fullKey}` });
      expect(keyed.status).toBe(403);
      expect(keyed.html).toContain('api_key_path_not_allowed');
    }
    for (const path of ['/console/events', `/console/requests/${REQUEST}`, `/console/streams/project-${projectId}`]) {
      const html = (await page(path, auditor)).html;
      // The only form posted from these screens is the header's sign-out.
      expect(html.match(/method="post"/g)).toEqual(['method="post"']);
    }
  });
});
