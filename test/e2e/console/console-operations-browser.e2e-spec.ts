import { ProjectionEngine, RecordedEvent } from '@app/application';
import { describeWithChromium } from '../../support/browser';
import { operatorCredential, signInToConsole, useConsoleBrowser } from '../../support/console-browser';
import { TestApp } from '../../support/test-app';

/**
 * The console's operations screens in a real browser (Debian's chromium driven by
 * playwright-core) on the service over real HTTP, checked by axe-core on every screen. The service
 * runs in this process so that the test can make the `projects` projector throw on one event.
 * `UPDATE_CONSOLE_SCREENSHOTS=1` rewrites docs/console/projections.png, deliveries.png and topology.png.
 */

const project = { name: 'Dam inspection', description: 'Spillway', status: 'planned', start_date: '2030-01-01' };

describeWithChromium('The console’s operations screens in a browser', () => {
  let t: TestApp;
  let fullKey: string;

  beforeAll(async () => {
    // A subscription to a loopback port nobody listens on fails at once; three failures pause it.
    t = await TestApp.start({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '0,20,20,20',
      WEBHOOK_PAUSE_AFTER_FAILURES: '3',
    });
    fullKey = (await t.provision({ name: 'Skyline Surveys' })).fullKey;
    await t.request('POST', '/v1/webhooks', {
      token: fullKey,
      body: { name: 'Ops feed', url: 'https://127.0.0.1:9/hooks', event_types: ['project.created'] },
    });
    for (let i = 0; i < 20; i++)
      await t.request('POST', '/v1/projects', { token: fullKey, body: { ...project, name: `Survey ${i}` } });
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  const b = useConsoleBrowser({ width: 1200, height: 900 });
  const { checkScreen, screenshot } = b;

  /** Signs the page in with a new operator credential of this role; answers its token. */
  async function signIn(role: 'operator' | 'auditor', name: string) {
    const { token } = await operatorCredential(t, role, name);
    await signInToConsole(b.page, t, token);
    return token;
  }

  const row = (name: string) => b.page.locator(`tr[data-projection="${name}"]`);

  it('an operator watches a rebuild to its end, sees a dead letter appear, retries it and sees it gone', async () => {
    const { page } = b;
    await signIn('operator', 'Ops on call');
    await page.getByRole('link', { name: 'Projections' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projections' }).waitFor();
    await checkScreen('projections');

    await page.getByLabel('Projection', { exact: true }).selectOption('audit');
    await page.getByRole('button', { name: 'Rebuild', exact: true }).click();
    await expect(page.getByRole('status').first().innerText()).resolves.toContain('Rebuild started: audit.');
    // The page's script polls the figures: the rebuild's line reaches its end without a reload.
    await page.locator('[data-live-status]').filter({ hasText: 'Live: updated' }).waitFor({ timeout: 15_000 });
    await row('audit')
      .locator('[data-live-field="audit.rebuild"]')
      .filter({ hasText: /^Done: / })
      .waitFor();
    await expect(
      row('audit')
        .locator('progress')
        .evaluate((p) => (p as unknown as { value: number }).value),
    ).resolves.toBe(100);

    // The test build's poison: the projects projector throws on one project's creation.
    const projector = t.app.get(ProjectionEngine).projector('projects')!;
    const original = projector.project.bind(projector);
    let broken = true;
    jest.spyOn(projector, 'project').mockImplementation((event: RecordedEvent) => {
      if (broken && (event.data as { name?: string }).name === 'Poisoned survey') throw new Error('cannot project it');
      return original(event);
    });
    await t.request('POST', '/v1/projects', { token: fullKey, body: { ...project, name: 'Poisoned survey' } });
    // The state turns to degraded live; the dead letter's row shows on the next load.
    await row('projects').locator('[data-state="degraded"]').waitFor({ timeout: 15_000 });
    await page.reload();
    const letter = page.locator('tr[data-dead-letter^="projects/"]');
    await expect(letter.innerText()).resolves.toContain('cannot project it');
    await expect(letter.innerText()).resolves.toContain('project.created');
    await checkScreen('projections with a dead letter');
    await screenshot('projections');

    await letter.getByRole('button', { name: /Retry/ }).click();
    await expect(page.getByRole('status').first().innerText()).resolves.toContain('the projector failed again');
    broken = false;
    await page.locator('tr[data-dead-letter^="projects/"]').getByRole('button', { name: /Retry/ }).click();
    await expect(page.getByRole('status').first().innerText()).resolves.toContain('the dead letter is gone');
    await expect(page.locator('tr[data-dead-letter]').count()).resolves.toBe(0);
    await expect(page.getByText('No dead letter: every projection applied every event.').count()).resolves.toBe(1);
  }, 60_000);

  it('an auditor sees the screens without write controls, and a write posted anyway is refused with 403', async () => {
    const { page } = b;
    const token = await signIn('auditor', 'External auditor');
    await page.goto(`${t.baseUrl}/console/projections`);
    await expect(page.getByRole('button', { name: 'Rebuild', exact: true }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Verify the read models' }).count()).resolves.toBe(1);
    await checkScreen('projections (auditor)');
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const posted = await page.request.post(`${t.baseUrl}/console/projections/rebuild`, {
      form: { _csrf: csrf, name: 'projects' },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(posted.status()).toBe(403);
    const api = await page.request.post(`${t.baseUrl}/v1/admin/projections/rebuild`, {
      data: { name: 'projects' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.status()).toBe(403);

    for (let i = 0; i < 200; i++) {
      const { subscriptions } = (await t.admin('GET', '/deliveries')).body;
      if (subscriptions.some((s: { status: string }) => s.status === 'paused')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor();
    await expect(page.locator('tr[data-webhook]').innerText()).resolves.toContain('Too many consecutive failures');
    await checkScreen('deliveries');
    await screenshot('deliveries');
    await page.getByRole('link', { name: 'Topology' }).click();
    await page.getByRole('heading', { level: 1, name: 'Topology' }).waitFor();
    await expect(page.locator('[data-topology="role"]').innerText()).resolves.toContain('Projector');
    await checkScreen('topology');
    await screenshot('topology');
  }, 60_000);
});
