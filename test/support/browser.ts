import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { ServiceProcess } from './service-process';
import { ADMIN_TOKEN } from './test-app';

/** Debian's chromium, driven by playwright-core; the browser suites skip without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1100, height: 800 };
const PHONE = { width: 360, height: 740 };

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/** A `describe` that runs only where Chromium is installed; elsewhere one skipped test says why. */
export function describeWithChromium(title: string, body: () => void): void {
  if (haveChromium) return describe(title, body);
  it.skip(`${title} — SKIPPED: ${CHROMIUM} not found (Debian's chromium package; .ci/run installs it)`, () => {});
  describe.skip(title, body);
}

/**
 * The built service as a real process for the calling `describe`, on a data directory of its own
 * (removed afterwards), with the request log on (info) so that a test can read what it logged.
 */
export function useServiceProcess(prefix: string): { readonly service: ServiceProcess } {
  let dir: string;
  let service: ServiceProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    service = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN, LOG_LEVEL: 'info' });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get service() {
      return service;
    },
  };
}

export interface BrowserOptions {
  /** The folder `screenshot` writes to, and the variable that, set to 1, makes it write. */
  screenshots: { dir: string; variable: 'UPDATE_DASHBOARD_SCREENSHOTS' | 'UPDATE_CONSOLE_SCREENSHOTS' };
  /** Each test's page size (a desktop's by default). */
  viewport?: { width: number; height: number };
  /**
   * `checkScreen` also loads each screen at a phone's width and finds no horizontal overflow;
   * the screens named here are pictured there too, as `<file>.png` in the screenshots' folder.
   */
  phone?: { screenshots: Record<string, string> };
  /** Prepares each test's browser context before its page opens (permissions, say). */
  prepareContext?: (context: BrowserContext) => Promise<void>;
}

export interface BrowserHarness {
  readonly browser: Browser;
  /** The current test's browser context (a fresh one per test). */
  readonly context: BrowserContext;
  /** The current test's page. */
  readonly page: Page;
  /** The page's errors and console errors, a Content-Security-Policy report among them, this test. */
  readonly problems: readonly string[];
  /**
   * axe-core finds no serious or critical violation, the screen fits a phone's width (with
   * `phone`), and the page logged no error nor CSP report.
   */
  checkScreen(name: string): Promise<void>;
  /** With the screenshots' variable set to 1: the page, whole, as `<name>.png` in their folder. */
  screenshot(name: string): Promise<void>;
}

/** axe-core's serious and critical findings on the page as it is (its source evaluated by the driver, which CSP does not govern). */
async function accessibilityProblems(page: Page) {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target) }));
}

/** How many pixels the page is wider than its viewport. */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
}

/**
 * Chromium for the calling `describe`: a browser context and page per test, each page's errors
 * and CSP reports collected for `checkScreen`.
 */
export function useBrowser(options: BrowserOptions): BrowserHarness {
  const { dir, variable } = options.screenshots;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: options.viewport ?? DESKTOP, acceptDownloads: true });
    await options.prepareContext?.(context);
    page = await context.newPage();
    problems = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // A refusal page is a document with a 4xx status on purpose; Chromium logs that as a failed load.
      const refusalPage = /^Failed to load resource/.test(message.text()) && message.location().url === page.url();
      if ((message.type() === 'error' && !refusalPage) || /Content Security Policy/i.test(message.text()))
        problems.push(`console: ${message.text()} (${message.location().url})`);
    });
  });

  afterEach(async () => {
    await context.close();
  });

  /** The same page at a phone's width (a GET of the same URL; a page showing a secret once is checked as it is). */
  async function checkPhoneWidth(name: string, screenshots: Record<string, string>) {
    const phone = await context.newPage();
    await phone.setViewportSize(PHONE);
    if (!name.includes('once')) {
      await phone.goto(page.url());
      const overflow = await horizontalOverflow(phone);
      expect({ screen: name, horizontalOverflow: overflow }).toEqual({ screen: name, horizontalOverflow: 0 });
      const file = screenshots[name];
      if (file && process.env[variable] === '1')
        await phone.screenshot({ path: join(dir, `${file}.png`), fullPage: true });
    }
    await phone.close();
  }

  return {
    get browser() {
      return browser;
    },
    get context() {
      return context;
    },
    get page() {
      return page;
    },
    get problems() {
      return problems;
    },
    async checkScreen(name) {
      expect({ screen: name, axe: await accessibilityProblems(page) }).toEqual({ screen: name, axe: [] });
      if (options.phone) await checkPhoneWidth(name, options.phone.screenshots);
      expect(problems).toEqual([]);
    },
    async screenshot(name) {
      if (process.env[variable] !== '1') return;
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
    },
  };
}
