import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN } from './test-app';

/** A service the dashboard helpers reach: its base URL (TestApp or ServiceProcess). */
export interface Reachable {
  baseUrl: string;
}

export interface PageResult {
  status: number;
  headers: Headers;
  html: string;
}

async function admin(service: Reachable, path: string, body?: unknown) {
  const response = await fetch(`${service.baseUrl}/v1/admin${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(body ?? {}),
  });
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body: json };
}

/** Who holds each role in the tests' workspaces. */
const PEOPLE: Record<string, { first_name: string; last_name: string }> = {
  root: { first_name: 'Rita', last_name: 'Root' },
  project_manager: { first_name: 'Priya', last_name: 'Manning' },
  ops_lead: { first_name: 'Omar', last_name: 'Lead' },
  pilot: { first_name: 'Pat', last_name: 'Pilot' },
  client: { first_name: 'Chloe', last_name: 'Client' },
};

/** A workspace with one member of each given role; answers their ids by role. */
export async function workspaceWithMembers(service: Reachable, name: string, roles: string[] = ['root', 'pilot']) {
  const ws = await admin(service, '/workspaces', { name, plan: 'enterprise' });
  if (ws.status !== 201) throw new Error(`workspace: ${ws.status} ${JSON.stringify(ws.body)}`);
  const workspaceId = ws.body.id as string;
  const members: Record<string, string> = {};
  for (const role of roles) {
    const member = await admin(service, `/workspaces/${workspaceId}/members`, {
      email: `${role}.${randomUUID().slice(0, 8)}@example.com`,
      role,
      ...(PEOPLE[role] ?? { first_name: 'Pat', last_name: role }),
    });
    if (member.status !== 201) throw new Error(`member: ${member.status} ${JSON.stringify(member.body)}`);
    members[role] = member.body.id as string;
  }
  return { workspaceId, members };
}

/** The operator mints a sign-in link (the admin API). */
export async function mintLink(service: Reachable, workspaceId: string, memberId: string) {
  const res = await admin(service, `/workspaces/${workspaceId}/members/${memberId}/dashboard-links`);
  if (res.status !== 201) throw new Error(`link: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { url: string; expires_at: number };
}

/** Signs the page in through a minted link, as a member would: its page, then its button. Answers the link. */
export async function signInThroughLink(page: Page, service: Reachable, workspaceId: string, memberId: string) {
  const link = await mintLink(service, workspaceId, memberId);
  await page.goto(link.url);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${service.baseUrl}/dashboard/api-keys`);
  return link;
}

/** A request as a browser on the dashboard's own pages sends it (a form post is same-origin). */
export async function dashboard(
  service: Reachable,
  method: 'GET' | 'POST',
  path: string,
  options: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<PageResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = `dashboard_session=${options.cookie}`;
  if (method === 'POST') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['sec-fetch-site'] ??= 'same-origin';
  }
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers,
    body: options.form ? new URLSearchParams(options.form).toString() : method === 'POST' ? '' : undefined,
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The session cookie a response sets, if any. */
export function sessionSet(page: PageResult): string | undefined {
  const header = page.headers.get('set-cookie') ?? '';
  return /dashboard_session=([^;]*)/.exec(header)?.[1] || undefined;
}

/** The CSRF token of a page's forms. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1];
}

/** Signs in through a minted link: its page (GET), then its button (POST). Answers the session cookie. */
export async function signIn(service: Reachable, workspaceId: string, memberId: string): Promise<string> {
  const { url } = await mintLink(service, workspaceId, memberId);
  const path = new URL(url).pathname + new URL(url).search;
  const token = new URL(url).searchParams.get('token')!;
  const page = await dashboard(service, 'GET', path);
  if (page.status !== 200) throw new Error(`sign-in page: ${page.status}`);
  const posted = await dashboard(service, 'POST', '/dashboard/sign-in', { form: { token } });
  const cookie = sessionSet(posted);
  if (posted.status !== 303 || !cookie) throw new Error(`sign-in: ${posted.status} ${posted.html}`);
  return cookie;
}

/** An API key created by the member of the session in the dashboard; answers its secret. */
export async function createKeyInDashboard(
  service: Reachable,
  cookie: string,
  name: string,
  scope: 'read_only' | 'full_access' = 'full_access',
): Promise<string> {
  const page = await dashboard(service, 'GET', '/dashboard/api-keys', { cookie });
  const created = await dashboard(service, 'POST', '/dashboard/api-keys', {
    cookie,
    form: { _csrf: csrfOf(page.html), name, scope },
  });
  const secret = /value="(v1_[A-Za-z0-9_-]+)"/.exec(created.html)?.[1];
  if (created.status !== 201 || !secret) throw new Error(`key: ${created.status}`);
  return secret;
}

/** The status display names form posted by the member of the session: labels by status. */
export async function setStatusLabels(
  service: Reachable,
  cookie: string,
  labels: Record<string, string>,
): Promise<PageResult> {
  const page = await dashboard(service, 'GET', '/dashboard/settings/statuses', { cookie });
  const form: Record<string, string> = { _csrf: csrfOf(page.html) };
  for (const [status, label] of Object.entries(labels)) form[`label_${status}`] = label;
  return dashboard(service, 'POST', '/dashboard/settings/statuses', { cookie, form });
}
