import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../../support/service-process';
import { ADMIN_TOKEN } from '../../support/test-app';
import { describeWithChromium, useBrowser, useServiceProcess } from '../../support/browser';
import { mintLink, signInThroughLink, workspaceWithMembers } from '../../support/dashboard';
import { HttpsReceiver } from '../../support/https-receiver';

/**
 * The dashboard in a real browser (Debian's chromium driven by playwright-core) on the built
 * service as a real process: each flow of docs/dashboard.md walked as a member would, with the
 * keyboard where a member might, at a phone's width, under the pages' Content-Security-Policy,
 * and checked by axe-core on every screen. `UPDATE_DASHBOARD_SCREENSHOTS=1` rewrites the
 * screenshots in docs/dashboard/.
 */

/** The screens also pictured at a phone's width, by the file name of their screenshot. */
const PHONE_SCREENSHOTS: Record<string, string> = {
  'api-keys': 'api-keys-phone',
  'webhook deliveries': 'webhook-deliveries-phone',
};

describeWithChromium('The dashboard in a browser', () => {
  // The request log is on: a test checks that no sign-in token reaches it.
  const built = useServiceProcess('wos-dashboard-');
  const b = useBrowser({
    screenshots: { dir: join(__dirname, '../../../docs/dashboard'), variable: 'UPDATE_DASHBOARD_SCREENSHOTS' },
    phone: { screenshots: PHONE_SCREENSHOTS },
    prepareContext: (context) =>
      context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: built.service.baseUrl }),
  });
  const { checkScreen, screenshot } = b;

  /** Whether Chart.js drew a chart on the canvas of this id (the script ran under the CSP). */
  function chartDrawn(id: string): Promise<boolean> {
    return b.page.evaluate(
      (canvasId) =>
        Boolean((globalThis as unknown as { Chart?: { getChart(id: string): unknown } }).Chart?.getChart(canvasId)),
      id,
    );
  }

  it('signs in through a minted link, once: the used link is refused', async () => {
    const { service } = built;
    const { page } = b;
    const ws = await workspaceWithMembers(service, 'Acme Aerial', ['root']);
    const link = await mintLink(service, ws.workspaceId, ws.members.root);

    await page.goto(link.url);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Sign in');
    await checkScreen('sign-in');
    await screenshot('sign-in');
    // Reloading the link's page (as a link preview would fetch it) does not use it up.
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${service.baseUrl}/dashboard/api-keys`);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('API keys');
    await expect(page.locator('.who').innerText()).resolves.toContain('Rita Root');

    const other = await b.browser.newContext();
    try {
      const again = await other.newPage();
      await again.goto(link.url);
      await again.getByRole('button', { name: 'Sign in' }).click();
      await expect(again.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'This sign-in link does not work',
      );
      await again.goto(`${service.baseUrl}/dashboard/team`);
      await expect(again.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Sign in required');
    } finally {
      await other.close();
    }
    expect(b.problems).toEqual([]);
    // The request log names routes, never URLs with their query: the token is in no log line.
    expect(service.output).toContain('/dashboard/sign-in');
    expect(service.output).not.toContain(new URL(link.url).searchParams.get('token'));
  }, 60_000);

  it('creates a key with the keyboard, shows it once, and the key works until it is deactivated', async () => {
    const { service } = built;
    const { page } = b;
    const ws = await workspaceWithMembers(service, 'Acme Aerial', ['root', 'pilot']);
    await signInThroughLink(page, service, ws.workspaceId, ws.members.root);
    await checkScreen('api-keys (empty)');

    // The keyboard alone: the name field, the scope, the button.
    await page.getByLabel('Name').focus();
    await page.keyboard.type('Deploy bot');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByLabel('Full access').isChecked()).resolves.toBe(true);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => (globalThis as any).document.activeElement.textContent)).resolves.toBe(
      'Create key',
    );
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { level: 1, name: 'API key created' }).waitFor();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('it will not be shown again');
    const key = await page.getByLabel('The key').inputValue();
    expect(key).toMatch(/^v1_[A-Za-z0-9_-]{43}$/);
    // The copy button is the script's: shown, and it copies.
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.locator('[data-copy-status]:not(:empty)').waitFor();
    await expect(page.locator('[data-copy-status]').innerText()).resolves.toBe('Copied to the clipboard.');
    await expect(page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).resolves.toBe(key);
    await checkScreen('api-key shown once');
    await screenshot('api-key-created');

    const projects = await fetch(`${service.baseUrl}/v1/projects`, { headers: { authorization: `Bearer ${key}` } });
    expect(projects.status).toBe(200);

    // Never shown again; its last use shows.
    await page.getByRole('link', { name: 'Back to the API keys' }).click();
    const html = await page.content();
    expect(html).not.toContain(key);
    const row = page.locator('tr', { hasText: 'Deploy bot' });
    await expect(row.locator('td[data-label="Created by"]').innerText()).resolves.toBe('Rita Root');
    await expect(row.locator('td[data-label="Scope"]').innerText()).resolves.toBe('Full access');
    await expect(row.locator('td[data-label="Last used"]').innerText()).resolves.toMatch(/UTC$/);
    // The chart of requests per key: drawn by Chart.js from the page's data, its figures beside it.
    await expect(chartDrawn('requests-chart')).resolves.toBe(true);
    await expect(page.locator('#requests-chart').getAttribute('aria-label')).resolves.toContain(
      '1 request in this period',
    );
    await expect(page.locator('.chart__figures tbody tr').last().locator('td').allTextContents()).resolves.toEqual([
      '1',
    ]);
    await checkScreen('api-keys');
    await screenshot('api-keys');

    // Deactivation asks first; the API then refuses the key.
    await row.getByRole('link', { name: /Deactivate/ }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Deactivate “Deploy bot”?');
    await checkScreen('deactivation');
    await page.getByRole('button', { name: 'Deactivate key' }).click();
    await page.waitForURL(`${service.baseUrl}/dashboard/api-keys?notice=deactivated`);
    await expect(page.getByRole('status').innerText()).resolves.toBe('The key was deactivated.');
    await expect(
      page.locator('tr', { hasText: 'Deploy bot' }).locator('td[data-label="Status"]').innerText(),
    ).resolves.toMatch(/^Inactive by Rita Root, \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    const refused = await fetch(`${service.baseUrl}/v1/projects`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code_name: string }).code_name).toBe('api_key_inactive');

    // The workspace's history says who did it.
    const reader = await fetch(`${service.baseUrl}/v1/admin/workspaces/${ws.workspaceId}/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Auditor', scope: 'read_only' }),
    });
    const auditor = ((await reader.json()) as { key: string }).key;
    const events = await fetch(`${service.baseUrl}/v1/events?limit=50`, {
      headers: { authorization: `Bearer ${auditor}` },
    });
    const feed = (await events.json()) as { events: Array<{ type: string; actor: unknown }> };
    const keyEvents = feed.events.filter((e) => e.type.startsWith('workspace.api_key_') && e.actor !== undefined);
    expect(
      keyEvents
        .filter((e) => JSON.stringify(e.actor) === JSON.stringify({ type: 'member', id: ws.members.root }))
        .map((e) => e.type)
        .sort(),
    ).toEqual(['workspace.api_key_created', 'workspace.api_key_deactivated']);
  }, 90_000);

  it('shows the team, read only, and signs out', async () => {
    const { service } = built;
    const { page } = b;
    const ws = await workspaceWithMembers(service, 'Acme Aerial', ['root', 'project_manager', 'pilot', 'client']);
    await signInThroughLink(page, service, ws.workspaceId, ws.members.pilot);
    // A pilot reads the keys but has no form to create one.
    await expect(page.getByRole('heading', { name: 'Create a key' }).count()).resolves.toBe(0);

    await page.getByRole('link', { name: 'Team' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Team');
    const rows = page.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(4);
    await expect(rows.locator('td[data-label="Role"]').allInnerTexts()).resolves.toEqual([
      'Root',
      'Project manager',
      'Pilot',
      'Client',
    ]);
    await expect(page.locator('td[data-label="Status"]').first().innerText()).resolves.toBe('Active');
    await checkScreen('team');
    await screenshot('team');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Signed out');
    await checkScreen('signed out');
    await page.goto(`${service.baseUrl}/dashboard/team`);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Sign in required');
    await checkScreen('sign in required');
  }, 60_000);

  it('names a status, sees it in the projects while the API keeps the value, and browses a project and a job with their timelines', async () => {
    const { service } = built;
    const { page } = b;
    const ws = await workspaceWithMembers(service, 'Acme Aerial', ['root', 'pilot']);
    const minted = await fetch(`${service.baseUrl}/v1/admin/workspaces/${ws.workspaceId}/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Planner', scope: 'full_access' }),
    });
    const key = ((await minted.json()) as { key: string }).key;
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${service.baseUrl}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const start = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const projectIds: Record<string, string> = {};
    for (const [name, status] of [
      ['North tower', 'in_progress'],
      ['River bridge', 'planned'],
      ['South tower', 'on_hold'],
    ]) {
      const res = await api('POST', '/projects', { name, description: `${name} survey`, status, start_date: start });
      expect(res.status).toBe(201);
      projectIds[name] = res.body.id as string;
    }
    const north = projectIds['North tower'];
    await api('PATCH', `/projects/${north}`, { description: 'Antenna survey, north face' });
    const job = await api('POST', `/projects/${north}/jobs`, {
      name: 'Antenna scan',
      type: 'cell_tower',
      job_pattern: 'one_time',
      start_date: start,
    });
    expect(job.status).toBe(201);
    await api('POST', `/projects/${north}/jobs/${job.body.id}/assign`, { pilots: [ws.members.pilot] });
    await api('PATCH', `/projects/${north}/jobs/${job.body.id}`, { status: 'in_progress' });

    await signInThroughLink(page, service, ws.workspaceId, ws.members.root);
    await page.getByRole('link', { name: 'Status names' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Status display names');
    await checkScreen('status labels');
    // The keyboard alone: the field, a name, Enter.
    await page.getByLabel(/^In progress/).focus();
    await page.keyboard.type('Flying');
    await page.getByLabel(/^On hold/).focus();
    await page.keyboard.type('Grounded');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${service.baseUrl}/dashboard/settings/statuses?notice=saved`);
    await expect(page.getByRole('status').innerText()).resolves.toBe('The display names were saved.');
    await expect(page.getByLabel(/^In progress/).inputValue()).resolves.toBe('Flying');
    await checkScreen('status labels saved');
    await screenshot('status-labels');

    await page.getByRole('link', { name: 'Projects' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Projects');
    const statusOf = (name: string) =>
      page.locator('tr', { hasText: name }).locator('td[data-label="Status"]').innerText();
    await expect(statusOf('North tower')).resolves.toBe('Flying');
    await expect(statusOf('South tower')).resolves.toBe('Grounded');
    await expect(statusOf('River bridge')).resolves.toBe('Planned');
    await checkScreen('projects');
    await screenshot('projects');
    // The API answers the predefined values all the same.
    const list = await api('GET', '/projects');
    expect(
      Object.fromEntries(list.body.projects.map((p: { name: string; status: string }) => [p.name, p.status])),
    ).toEqual({
      'North tower': 'in_progress',
      'River bridge': 'planned',
      'South tower': 'on_hold',
    });

    // Filter by a status under its name, then search by name.
    await page.getByLabel('Status').selectOption({ label: 'Grounded' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/status=on_hold/);
    await expect(page.locator('td[data-label="Name"]').allInnerTexts()).resolves.toEqual(['South tower']);
    await page.getByLabel('Status').selectOption({ label: 'Any status' });
    await page.getByLabel('Name contains').fill('TOWER');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/q=TOWER/);
    await expect(page.locator('td[data-label="Name"]').allInnerTexts()).resolves.toEqual([
      'North tower',
      'South tower',
    ]);
    await checkScreen('projects found');

    // A project: its fields, jobs and timeline.
    await page.getByRole('link', { name: 'North tower' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('North tower');
    await expect(page.locator('.facts dd').first().innerText()).resolves.toBe('Flying');
    await expect(
      page.locator('tr', { hasText: 'Antenna scan' }).locator('td[data-label="Status"]').innerText(),
    ).resolves.toBe('Flying');
    const timeline = page.locator('.timeline__entry');
    await expect(timeline.count()).resolves.toBe(2);
    await expect(timeline.nth(0).innerText()).resolves.toMatch(
      /^Created by API key “Planner”, \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    await expect(timeline.nth(1).innerText()).resolves.toContain('Antenna survey, north face');
    await checkScreen('project');
    await screenshot('project');

    // A job: its pilots, occurrences and timeline, members by name.
    await page.getByRole('link', { name: 'Antenna scan' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Antenna scan');
    await expect(page.getByRole('heading', { name: 'Assigned pilots' }).isVisible()).resolves.toBe(true);
    await expect(
      page.locator('section', { hasText: 'Assigned pilots' }).locator('li').allInnerTexts(),
    ).resolves.toEqual(['Pat Pilot']);
    const jobTimeline = await page.locator('.timeline').innerText();
    expect(jobTimeline).toContain('Pilots assigned by API key “Planner”');
    expect(jobTimeline).toMatch(/pilot_ids\s+Pat Pilot/);
    expect(jobTimeline).toMatch(/status\s+Flying/);
    await checkScreen('job');
    await page.getByRole('link', { name: 'North tower' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('North tower');
  }, 120_000);

  it('manages a webhook: the secret once, a test event, a failed delivery resent, pause, resume, rotate, delete', async () => {
    const { page } = b;
    const receiver = await HttpsReceiver.start();
    const hooksDir = mkdtempSync(join(tmpdir(), 'wos-dashboard-hooks-'));
    // The service trusts the receiver's certificate and may deliver to loopback, as in the webhook e2e tests.
    const hooks = await ServiceProcess.start({
      DATA_DIR: hooksDir,
      ADMIN_TOKEN,
      NODE_EXTRA_CA_CERTS: receiver.caFile,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '0,100',
      WEBHOOK_PAUSE_AFTER_FAILURES: '10',
    });
    const title = () => page.getByRole('heading', { level: 1 }).innerText();
    const notice = () => page.getByRole('status').first().innerText();
    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: hooks.baseUrl });
    try {
      const ws = await workspaceWithMembers(hooks, 'Acme Aerial', ['root']);
      await signInThroughLink(page, hooks, ws.workspaceId, ws.members.root);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await expect(title()).resolves.toBe('Webhooks');
      await checkScreen('webhooks (empty)');

      // Created with the keyboard: name, URL, the first event type, the button.
      await page.getByLabel('Name').focus();
      await page.keyboard.type('Ops receiver');
      await page.keyboard.press('Tab');
      await page.keyboard.type(receiver.url('/hooks'));
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      await expect(page.getByLabel('project.created').isChecked()).resolves.toBe(true);
      await page.getByRole('button', { name: 'Create webhook' }).focus();
      await page.keyboard.press('Enter');

      await page.getByRole('heading', { level: 1, name: 'Webhook created' }).waitFor();
      await expect(page.getByRole('alert').innerText()).resolves.toContain('it will not be shown again');
      const secret = await page.getByLabel('The signing secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.locator('[data-copy-status]:not(:empty)').waitFor();
      await expect(page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).resolves.toBe(secret);
      await checkScreen('webhook secret shown once');
      await screenshot('webhook-secret');

      await page.getByRole('link', { name: 'Go to the webhook and its deliveries' }).click();
      await expect(title()).resolves.toBe('Ops receiver');
      expect(await page.content()).not.toContain(secret);
      const webhookUrl = page.url();

      // A test event, delivered.
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await page.waitForURL(/notice=test-succeeded$/);
      await expect(notice()).resolves.toBe('The test event was delivered.');
      const testRow = page.locator('tbody tr').first();
      await expect(testRow.locator('td[data-label="Event"]').innerText()).resolves.toBe('webhook.test');
      await expect(testRow.locator('td[data-label="Result"]').innerText()).resolves.toBe('Succeeded');
      await expect(testRow.locator('td[data-label="Status code"]').innerText()).resolves.toBe('204');
      await expect(testRow.locator('td[data-label="Latency"]').innerText()).resolves.toMatch(/^\d+ ms$/);
      expect(receiver.received('/hooks')).toHaveLength(1);

      // The receiver fails: the event's delivery fails on every attempt of its schedule.
      receiver.respond('/hooks', { status: 500, body: 'receiver down for maintenance' });
      const keyRes = await fetch(`${hooks.baseUrl}/v1/admin/workspaces/${ws.workspaceId}/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ops bot', scope: 'full_access' }),
      });
      const apiKey = ((await keyRes.json()) as { key: string }).key;
      const project = await fetch(`${hooks.baseUrl}/v1/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Dam inspection',
          description: 'Spillway',
          status: 'planned',
          start_date: '2026-12-01',
        }),
      });
      expect(project.status).toBe(201);
      const failed = await receiver.waitFor('/hooks', 3, 20_000);
      const webhookIdHeader = failed[1].headers['webhook-id'];
      expect(failed[2].headers['webhook-id']).toBe(webhookIdHeader);
      const resend = page.getByRole('button', { name: `Resend delivery ${webhookIdHeader}` });
      for (let i = 0; i < 50 && (await resend.count()) === 0; i++) {
        await new Promise((r) => setTimeout(r, 200));
        await page.goto(webhookUrl);
      }
      const failedRow = page.locator('tbody tr').first();
      await expect(failedRow.locator('td[data-label="Result"]').innerText()).resolves.toBe('Failed');
      await expect(failedRow.locator('td[data-label="Status code"]').innerText()).resolves.toBe('500');
      await expect(failedRow.locator('td[data-label="Response"]').innerText()).resolves.toBe(
        'receiver down for maintenance',
      );
      await expect(failedRow.locator('td[data-label="Delivery"]').innerText()).resolves.toContain(webhookIdHeader);

      // The receiver recovers; the failed delivery is resent, with the same webhook-id.
      receiver.respond('/hooks', { status: 200, body: 'thanks' });
      await resend.click();
      await page.waitForURL(/notice=resent$/);
      await expect(notice()).resolves.toBe('The delivery is queued again, with the same webhook-id.');
      const arrived = await receiver.waitFor('/hooks', 4, 20_000);
      expect(arrived[3].headers['webhook-id']).toBe(webhookIdHeader);
      expect(arrived[3].body).toBe(failed[1].body);
      const succeededRow = page.locator('tbody tr', { hasText: webhookIdHeader }).filter({ hasText: 'Succeeded' });
      for (let i = 0; i < 50 && (await succeededRow.count()) === 0; i++) {
        await new Promise((r) => setTimeout(r, 200));
        await page.goto(webhookUrl);
      }
      await expect(succeededRow.locator('td[data-label="Status code"]').innerText()).resolves.toBe('200');
      await expect(succeededRow.locator('td[data-label="Delivery"]').innerText()).resolves.toContain('attempt 3');
      // The deliveries chart: today's bar holds every attempt of the log, succeeded over failed.
      await expect(chartDrawn('deliveries-chart')).resolves.toBe(true);
      const today = page.locator('.chart__figures tbody tr').last();
      const [succeededToday, failedToday] = (await today.locator('td').allTextContents()).map(Number);
      expect(succeededToday).toBeGreaterThanOrEqual(1);
      expect(failedToday).toBeGreaterThanOrEqual(2);
      await checkScreen('webhook deliveries');
      await screenshot('webhook-deliveries');

      // Paused, then resumed.
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.waitForURL(/notice=paused$/);
      await expect(page.locator('.facts .badge').innerText()).resolves.toBe('Paused');
      await expect(page.locator('.facts').innerText()).resolves.toMatch(
        /Paused by Rita Root, \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Nothing is delivered until it is resumed\./,
      );
      await page.getByRole('link', { name: 'All webhooks' }).click();
      await expect(
        page.locator('tbody tr', { hasText: 'Ops receiver' }).locator('td[data-label="Status"]').innerText(),
      ).resolves.toMatch(/^Paused Paused by Rita Root, \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
      await page.goto(webhookUrl);
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.waitForURL(/notice=resumed$/);
      await expect(page.locator('.facts .badge').innerText()).resolves.toBe('Active');

      // Edited: a new name and one more event type.
      await page.getByRole('link', { name: 'Edit' }).click();
      await expect(title()).resolves.toBe('Edit “Ops receiver”');
      await checkScreen('webhook edit');
      await page.getByLabel('Name').fill('Ops receiver (prod)');
      await page.getByLabel('job.created').check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(/notice=updated$/);
      await expect(title()).resolves.toBe('Ops receiver (prod)');

      await page.getByRole('link', { name: 'All webhooks' }).click();
      const row = page.locator('tbody tr', { hasText: 'Ops receiver (prod)' });
      await expect(row.locator('td[data-label="Event types"]').innerText()).resolves.toBe(
        'project.created, job.created',
      );
      await expect(row.locator('td[data-label="Status"]').innerText()).resolves.toBe('Active');
      await expect(row.locator('td[data-label="Failures"]').innerText()).resolves.toBe('0');
      await checkScreen('webhooks');
      await screenshot('webhooks');

      // The secret rotated, asked first, shown once.
      await row.getByRole('link', { name: 'Ops receiver (prod)' }).click();
      await page.getByRole('link', { name: 'Rotate secret' }).click();
      await checkScreen('webhook rotation');
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await expect(title()).resolves.toBe('Webhook secret rotated');
      const rotated = await page.getByLabel('The signing secret').inputValue();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await checkScreen('webhook secret rotated, once');

      // Deleted, asked first.
      await page.getByRole('link', { name: 'Go to the webhook and its deliveries' }).click();
      await page.getByRole('link', { name: 'Delete' }).click();
      await expect(title()).resolves.toBe('Delete “Ops receiver (prod)”?');
      await checkScreen('webhook deletion');
      await page.getByRole('button', { name: 'Delete webhook' }).click();
      await page.waitForURL(`${hooks.baseUrl}/dashboard/webhooks?notice=deleted`);
      await expect(notice()).resolves.toBe('The webhook was deleted.');
      await expect(page.locator('main').innerText()).resolves.toContain('This workspace has no webhooks yet.');

      // The workspace's history names the member for every change.
      const events = await fetch(`${hooks.baseUrl}/v1/events?limit=50`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      const feed = (await events.json()) as { events: Array<{ type: string; actor: unknown }> };
      const byMember = feed.events
        .filter((e) => e.type.startsWith('webhook.'))
        .filter((e) => JSON.stringify(e.actor) === JSON.stringify({ type: 'member', id: ws.members.root }))
        .map((e) => e.type);
      expect(new Set(byMember)).toEqual(
        new Set(['webhook.created', 'webhook.updated', 'webhook.secret_rotated', 'webhook.deleted']),
      );
    } finally {
      await hooks.stop();
      await receiver.close();
      rmSync(hooksDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('filters the audit trail by type and by who, follows an entry to its resource, and exports the view', async () => {
    const { service } = built;
    const { page } = b;
    const ws = await workspaceWithMembers(service, 'Acme Aerial', ['root', 'ops_lead']);
    const admin = (path: string, body: unknown) =>
      fetch(`${service.baseUrl}/v1/admin${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => (await r.json()) as { id: string; key: string });
    const bot = await admin(`/workspaces/${ws.workspaceId}/api-keys`, { name: 'Ops bot', scope: 'full_access' });
    const api = (path: string, body: unknown) =>
      fetch(`${service.baseUrl}/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bot.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => (await r.json()) as { id: string });
    await api('/projects', { name: 'Dam inspection', description: 'd', status: 'draft', start_date: '2026-01-01' });
    const hook = await api('/webhooks', {
      name: 'Ops hook',
      url: 'https://93.184.216.34/hooks',
      event_types: ['project.created'],
    });

    await signInThroughLink(page, service, ws.workspaceId, ws.members.ops_lead);
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Audit trail');
    const types = page.locator('td[data-label="Event"]');
    // Newest first: the webhook, then the project (and its slot), then the operator's changes.
    await expect(types.first().innerText()).resolves.toBe('webhook.created');
    await expect(types.allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(['project.created', 'workspace.created']),
    );
    await checkScreen('audit trail');
    await screenshot('audit');

    await page.getByLabel('Event type').selectOption('webhook.created');
    await page.getByLabel('Who').selectOption({ label: 'API key “Ops bot”' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/\/dashboard\/audit\?type=webhook\.created&actor=key_/);
    await expect(types.allInnerTexts()).resolves.toEqual(['webhook.created']);
    await expect(page.locator('td[data-label="Who"]').innerText()).resolves.toBe('API key “Ops bot”');
    await checkScreen('audit trail (filtered)');

    // Nobody else did it: the operator's filter finds no webhook.
    await page.getByLabel('Who').selectOption({ label: 'Operator' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByText('No events match.').count()).resolves.toBe(1);
    await page.goBack();

    // The export downloads the filtered view.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export as NDJSON' }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; metadata: { actor: { id: string } } });
    expect(lines.map((l) => [l.type, l.metadata.actor.id])).toEqual([['webhook.created', bot.id]]);

    await page.getByRole('link', { name: `Webhook ${hook.id}` }).click();
    await page.waitForURL(`${service.baseUrl}/dashboard/webhooks/${hook.id}`);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Ops hook');
    expect(b.problems).toEqual([]);
  }, 90_000);

  it('refuses an expired link', async () => {
    const { page } = b;
    const shortDir = mkdtempSync(join(tmpdir(), 'wos-dashboard-ttl-'));
    const short = await ServiceProcess.start({ DATA_DIR: shortDir, ADMIN_TOKEN, DASHBOARD_LINK_TTL_SECONDS: '1' });
    try {
      const ws = await workspaceWithMembers(short, 'Late Co', ['root']);
      const link = await mintLink(short, ws.workspaceId, ws.members.root);
      await page.goto(link.url);
      await new Promise((r) => setTimeout(r, 1200));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'This sign-in link does not work',
      );
      await expect(page.locator('main').innerText()).resolves.toContain('has expired or has already been used');
      await checkScreen('link refused');
    } finally {
      await short.stop();
      rmSync(shortDir, { recursive: true, force: true });
    }
  }, 60_000);
});
