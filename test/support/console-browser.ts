import { join } from 'node:path';
import { Page } from 'playwright-core';
import { BrowserHarness, useBrowser } from './browser';
import { Reachable } from './dashboard';
import { ADMIN_TOKEN } from './test-app';

/**
 * Chromium for a console suite (test/support/browser.ts): a page per test at this size, and
 * `UPDATE_CONSOLE_SCREENSHOTS=1` writing its screenshots to docs/console/.
 */
export function useConsoleBrowser(viewport?: { width: number; height: number }): BrowserHarness {
  return useBrowser({
    viewport,
    screenshots: { dir: join(__dirname, '../../docs/console'), variable: 'UPDATE_CONSOLE_SCREENSHOTS' },
  });
}

/** A new operator credential of this role (the operator API, as ADMIN_TOKEN). */
export async function operatorCredential(
  service: Reachable,
  role: 'operator' | 'auditor',
  name: string,
): Promise<{ id: string; token: string }> {
  const res = await fetch(`${service.baseUrl}/v1/admin/operators`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, role }),
  });
  return (await res.json()) as { id: string; token: string };
}

/** Signs the page in to the console with this credential through the sign-in form. */
export async function signInToConsole(page: Page, service: Reachable, token: string): Promise<void> {
  await page.goto(`${service.baseUrl}/console`);
  await page.getByLabel('Credential').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${service.baseUrl}/console/workspaces`);
}
