import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { ServiceProcess } from '../../support/service-process';
import { ADMIN_TOKEN } from '../../support/test-app';
import { workspaceWithMembers } from '../../support/dashboard';

/**
 * The operator console in a real browser (Debian's chromium driven by playwright-core) on the
 * built service as a real process, checked by axe-core on every screen.
 * `UPDATE_CONSOLE_SCREENSHOTS=1` rewrites the screenshots in docs/console/.
 */

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const describeWithChromium = haveChromium ? describe : describe.skip;
const SCREENSHOTS = join(__dirname, '../../../docs/console');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

if (!haveChromium) {
  it.skip(`the console in a browser — SKIPPED: ${CHROMIUM} not found (Debian's chromium package)`, () => {});
}

describeWithChromium('The operator console in a browser', () => {
  let dir: string;
  let service: ServiceProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-console-'));
    service = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN, LOG_LEVEL: 'info' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    page = await context.newPage();
    problems = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      const refusalPage = /^Failed to load resource/.test(message.text()) && message.location().url === page.url();
      if ((message.type() === 'error' && !refusalPage) || /Content Security Policy/i.test(message.text()))
        problems.push(`console: ${message.text()} (${message.location().url})`);
    });
  });

  afterEach(async () => {
    await context.close();
  });

  async function checkScreen(name: string) {
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
      return (await axe.run()).violations;
    });
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target) }));
    expect({ screen: name, axe: serious }).toEqual({ screen: name, axe: [] });
    expect(problems).toEqual([]);
  }

  async function screenshot(name: string) {
    if (process.env.UPDATE_CONSOLE_SCREENSHOTS !== '1') return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  async function credential(role: 'operator' | 'auditor', name: string) {
    const res = await fetch(`${service.baseUrl}/v1/admin/operators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, role }),
    });
    return (await res.json()) as { id: string; token: string };
  }

  async function signIn(token: string) {
    await page.goto(`${service.baseUrl}/console`);
    await page.getByLabel('Credential').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${service.baseUrl}/console/workspaces`);
  }

  it('an operator signs in, creates a workspace, mints a dashboard link and opens it', async () => {
    await workspaceWithMembers(service, 'Skyline Surveys', ['root']);
    const operator = await credential('operator', 'Ops on call');

    await page.goto(`${service.baseUrl}/console`);
    await checkScreen('sign-in');
    await screenshot('sign-in');
    await signIn(operator.token);
    await expect(page.locator('.who').innerText()).resolves.toContain('Ops on call (Operator)');

    await page.getByLabel('Name', { exact: true }).fill('Harbour Mapping');
    await page.getByLabel('Plan').selectOption('pro');
    await page.getByLabel(/Project limit/).fill('25');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Harbour Mapping' }).waitFor();
    await expect(page.getByRole('status').innerText()).resolves.toContain('Workspace created.');

    await page.goto(`${service.baseUrl}/console/workspaces`);
    await checkScreen('workspaces');
    await screenshot('workspaces');

    await page.getByRole('link', { name: 'Skyline Surveys' }).click();
    await page.getByRole('heading', { level: 1, name: 'Skyline Surveys' }).waitFor();
    await checkScreen('workspace');
    await screenshot('workspace');
    await page.getByRole('button', { name: /Mint dashboard link/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard sign-in link' }).waitFor();
    await checkScreen('dashboard link shown once');
    const link = await page.getByLabel('Dashboard link').inputValue();
    expect(link).toMatch(/\/dashboard\/sign-in\?token=[A-Za-z0-9_-]{43}$/);

    const member = await browser.newContext();
    try {
      const dashboardPage = await member.newPage();
      await dashboardPage.goto(link);
      await dashboardPage.getByRole('button', { name: 'Sign in' }).click();
      await dashboardPage.waitForURL(`${service.baseUrl}/dashboard/api-keys`);
      await expect(dashboardPage.locator('.brand').innerText()).resolves.toContain('Skyline Surveys');
    } finally {
      await member.close();
    }
    expect(service.output).not.toContain(operator.token);
  }, 60_000);

  it('an auditor signs in and sees no write control', async () => {
    await workspaceWithMembers(service, 'Audit Target', ['root']);
    const auditor = await credential('auditor', 'External auditor');
    await signIn(auditor.token);
    await expect(page.locator('.who').innerText()).resolves.toContain('External auditor (Auditor (read only))');
    await expect(page.getByRole('button', { name: 'Create workspace' }).count()).resolves.toBe(0);
    await page.getByLabel('Search by name').fill('audit target');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Audit Target' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit Target' }).waitFor();
    await expect(page.getByRole('button', { name: /Mint dashboard link/ }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Save' }).count()).resolves.toBe(0);
    await checkScreen('workspace (auditor)');
  }, 60_000);
});
