import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describeWithChromium, useServiceProcess } from '../../support/browser';
import { operatorCredential, signInToConsole, useConsoleBrowser } from '../../support/console-browser';
import { workspaceWithMembers } from '../../support/dashboard';
import { ADMIN_TOKEN } from '../../support/test-app';

/**
 * The console's audit views in a real browser (docs/console.md): an auditor filters the feed by
 * actor and time, follows one request across its streams, opens a project's timeline at an
 * earlier revision and exports, with no write control anywhere. axe-core checks each screen.
 * `UPDATE_CONSOLE_SCREENSHOTS=1` rewrites docs/console/feed.png, request.png and timeline.png.
 */

describeWithChromium("The console's audit views in a browser", () => {
  const built = useServiceProcess('wos-console-audit-');
  const b = useConsoleBrowser();
  const REQUEST = 'req-survey-create-7f3a';

  async function api(
    method: string,
    path: string,
    token: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${built.service.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** On an audit screen the only form that posts is the header's sign-out, and the only buttons read. */
  async function noWriteControl() {
    const { page } = b;
    await expect(page.locator('form[method="post"]').count()).resolves.toBe(1);
    await expect(page.locator('form[method="post"][action="/console/sign-out"]').count()).resolves.toBe(1);
    const buttons = await page.getByRole('button').allInnerTexts();
    expect(buttons.filter((text) => !['Sign out', 'Filter', 'Show state'].includes(text.trim()))).toEqual([]);
  }

  it('an auditor filters the feed, follows a request, opens a timeline at an earlier revision and exports', async () => {
    const { workspaceId } = await workspaceWithMembers(built.service, 'Skyline Surveys', ['root', 'pilot']);
    const key = await api(
      'POST',
      `/v1/admin/workspaces/${workspaceId}/api-keys`,
      ADMIN_TOKEN,
      {
        name: 'Field app',
        scope: 'full_access',
      },
      { 'idempotency-key': randomUUID() },
    );
    const token = key.body.key as string;
    const keyId = key.body.id as string;
    const created = await api(
      'POST',
      '/v1/projects',
      token,
      { name: 'Dam survey', description: 'Spillway inspection', status: 'planned', start_date: '2026-03-01' },
      { 'x-request-id': REQUEST },
    );
    expect(created.status).toBe(201);
    const projectId = created.body.id as string;
    for (const body of [{ name: 'Dam survey, north bank' }, { status: 'in_progress' }]) {
      expect((await api('PATCH', `/v1/projects/${projectId}`, token, body)).status).toBe(200);
    }
    const auditor = await operatorCredential(built.service, 'auditor', 'External auditor');
    const { page } = b;

    await signInToConsole(page, built.service, auditor.token);
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
    await b.checkScreen('events');

    await page.getByLabel(/^Who/).fill(keyId);
    await page.getByLabel('From (UTC)').fill('2020-01-01T00:00');
    await page.getByLabel('To (UTC, inclusive)').fill('2099-12-31T23:59');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/actor=key_/);
    const rows = page.locator('#feed tbody tr');
    await expect(rows.count()).resolves.toBe(4);
    for (const row of await rows.allInnerTexts()) expect(row).toContain(keyId);
    await expect(rows.first().innerText()).resolves.toContain('project.updated');
    await b.checkScreen('feed filtered by actor and time');
    await noWriteControl();
    await b.screenshot('feed');

    await page.getByRole('link', { name: REQUEST }).first().click();
    await page.getByRole('heading', { level: 1, name: `Request ${REQUEST}` }).waitFor();
    await expect(page.getByRole('heading', { level: 2 }).allInnerTexts()).resolves.toEqual([
      `workspace-${workspaceId}`,
      `project-${projectId}`,
    ]);
    await b.checkScreen('request');
    await noWriteControl();
    await b.screenshot('request');

    await page.getByRole('link', { name: `Timeline of project-${projectId}` }).click();
    await page.getByRole('heading', { level: 1, name: `Project ${projectId}` }).waitFor();
    await expect(page.locator('#state-title').innerText()).resolves.toBe('State as of revision 2 (the latest)');
    await page.getByRole('link', { name: 'State as of revision 1' }).click();
    await page.waitForURL(/revision=1/);
    await expect(page.locator('#state-title').innerText()).resolves.toBe('State as of revision 1');
    const state = await page.locator('#state').innerText();
    expect(state).toContain('Dam survey, north bank');
    expect(state).toContain('planned');
    expect(state).not.toContain('in_progress');
    const revision2 = await page.locator('#revision-2').innerText();
    expect(revision2).toMatch(/fields\.status\s+planned\s+in_progress/);
    await b.checkScreen('timeline at an earlier revision');
    await noWriteControl();
    await b.screenshot('timeline');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export as NDJSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`events-project-${projectId}.ndjson`);
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; revision: number });
    expect(lines.map((l) => [l.type, l.revision])).toEqual([
      ['project.created', 0],
      ['project.updated', 1],
      ['project.updated', 2],
    ]);

    const refused = await api('POST', '/v1/admin/workspaces', auditor.token, { name: 'Nope', plan: 'pro' });
    expect(refused.status).toBe(403);
  }, 90_000);
});
