import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { ServiceProcess } from './service-process';
import { ADMIN_TOKEN } from './test-app';

/** Debian's chromium, driven by playwright-core; the console's browser suites skip without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
const SCREENSHOTS = join(__dirname, '../../docs/console');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

export interface ConsoleBrowser {
  readonly service: ServiceProcess;
  readonly browser: Browser;
  /** The current test's page (a fresh browser context per test). */
  readonly page: Page;
  /** axe-core finds no serious or critical violation, and the page logged no error nor CSP report. */
  checkScreen(name: string): Promise<void>;
  /** With `UPDATE_CONSOLE_SCREENSHOTS=1`: the page, whole, as docs/console/<name>.png. */
  screenshot(name: string): Promise<void>;
  /** A new operator credential of this role (the operator API, as ADMIN_TOKEN). */
  credential(role: 'operator' | 'auditor', name: string): Promise<{ id: string; token: string }>;
  /** Signs the page in with this credential through the sign-in form. */
  signIn(token: string): Promise<void>;
}

/**
 * The built service as a real process and Chromium for the calling `describe`: a browser context
 * per test, each page's errors and CSP reports collected for `checkScreen`.
 */
export function useConsoleBrowser(prefix: string): ConsoleBrowser {
  let dir: string;
  let service: ServiceProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
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
    context = await browser.newContext({ viewport: { width: 1100, height: 800 }, acceptDownloads: true });
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

  return {
    get service() {
      return service;
    },
    get browser() {
      return browser;
    },
    get page() {
      return page;
    },
    async checkScreen(name) {
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
    },
    async screenshot(name) {
      if (process.env.UPDATE_CONSOLE_SCREENSHOTS !== '1') return;
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    async credential(role, name) {
      const res = await fetch(`${service.baseUrl}/v1/admin/operators`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, role }),
      });
      return (await res.json()) as { id: string; token: string };
    },
    async signIn(token) {
      await page.goto(`${service.baseUrl}/console`);
      await page.getByLabel('Credential').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${service.baseUrl}/console/workspaces`);
    },
  };
}
