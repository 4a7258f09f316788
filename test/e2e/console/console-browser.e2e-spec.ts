import { describeWithChromium, useServiceProcess } from '../../support/browser';
import { operatorCredential, signInToConsole, useConsoleBrowser } from '../../support/console-browser';
import { workspaceWithMembers } from '../../support/dashboard';

/**
 * The operator console in a real browser (Debian's chromium driven by playwright-core) on the
 * built service as a real process, checked by axe-core on every screen.
 * `UPDATE_CONSOLE_SCREENSHOTS=1` rewrites the screenshots in docs/console/.
 */

describeWithChromium('The operator console in a browser', () => {
  const built = useServiceProcess('wos-console-');
  const b = useConsoleBrowser();

  it('an operator signs in, creates a workspace, mints a dashboard link and opens it', async () => {
    const { service } = built;
    const { browser, page, checkScreen, screenshot } = b;
    await workspaceWithMembers(service, 'Skyline Surveys', ['root']);
    const operator = await operatorCredential(service, 'operator', 'Ops on call');

    await page.goto(`${service.baseUrl}/console`);
    await checkScreen('sign-in');
    await screenshot('sign-in');
    await signInToConsole(page, service, operator.token);
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
    const { service } = built;
    const { page, checkScreen } = b;
    await workspaceWithMembers(service, 'Audit Target', ['root']);
    const auditor = await operatorCredential(service, 'auditor', 'External auditor');
    await signInToConsole(page, service, auditor.token);
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
