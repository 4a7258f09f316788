import { Keys, TestApp, useProvisionedApp } from '../../support/test-app';

/**
 * The set-up the jobs e2e files share (docs/api.md, Jobs, 3.4, 4.2, 7, 8): a service on loopback,
 * a workspace with a project, three pilots and an ops lead, another workspace with a pilot of its
 * own, and the request helpers. `useJobsApp()` starts them before the calling file's tests and
 * stops them after; the bindings below are live, so the helpers read the current file's values.
 * Dates are relative to today: the 6-month rule on start_date and the rolling horizon of
 * occurrences both depend on the date the service runs on.
 */

export { STATUS_MESSAGE } from '../shared-refusals';
export const CAPTURE_TYPES = [
  'drone_inspection', 'thermal_inspection', 'video_capture', '3d_mapping', 'lidar_scan',
  'orthomosaic', 'ground_smartphone', 'ground_360', 'panorama',
]; // prettier-ignore

const DAY = 86_400_000;
const toDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY;
const fromDay = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
export const today = () => new Date().toISOString().slice(0, 10);
export const plusDays = (iso: string, days: number) => fromDay(toDay(iso) + days);
const weekdayOf = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay();
export const nextWeekday = (iso: string, weekday: number) => plusDays(iso, (weekday - weekdayOf(iso) + 7) % 7);
/** Every `step`-th day from `from` through `to`, inclusive. */
export const everyNthDay = (from: string, to: string, step: number) => {
  const days: string[] = [];
  for (let d = toDay(from); d <= toDay(to); d += step) days.push(fromDay(d));
  return days;
};

export type { Keys };

export let t: TestApp;
export let keys: Keys;
export let other: Keys;
export let projectId: string;
export let pilotA: string;
export let pilotB: string;
export let pilotC: string;
export let opsLead: string;
export let foreignPilot: string;
export const start = plusDays(today(), 30);
export const valid = () => ({
  name: 'Blade inspection',
  type: 'wind_turbine',
  job_pattern: 'one_time',
  start_date: start,
});
export const monday = () => nextWeekday(plusDays(today(), 14), 1);

export function useJobsApp() {
  // The tests are about jobs, not rate limits: room for the bursts below whatever the defaults.
  ({ t, keys } = useProvisionedApp({ RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_SECOND: '1000000' }));
  beforeAll(async () => {
    other = await t.provision({ name: 'Other' });
    projectId = await createProject(keys);
    const member = async (ws: Keys, email: string, role: string) => {
      const res = await t.admin('POST', `/workspaces/${ws.workspaceId}/members`, {
        email,
        role,
        first_name: email.split('@')[0],
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    pilotA = await member(keys, 'ana@example.com', 'pilot');
    pilotB = await member(keys, 'ben@example.com', 'pilot');
    pilotC = await member(keys, 'cleo@example.com', 'pilot');
    opsLead = await member(keys, 'ops@example.com', 'ops_lead');
    foreignPilot = await member(other, 'far@example.com', 'pilot');
  });
}

export async function createProject(ws: Keys) {
  const res = await t.request('POST', '/v1/projects', {
    token: ws.fullKey,
    body: { name: 'Wind farm', description: 'North site', status: 'planned', start_date: today() },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

export const jobsPath = (pid = projectId) => `/v1/projects/${pid}/jobs`;
export const post = (body: unknown, pid = projectId, token = keys.fullKey) =>
  t.request('POST', jobsPath(pid), { token, body });
export const get = (id: string, pid = projectId, token = keys.fullKey) =>
  t.request('GET', `${jobsPath(pid)}/${id}`, { token });
export const patch = (id: string, body: unknown, pid = projectId) =>
  t.request('PATCH', `${jobsPath(pid)}/${id}`, { token: keys.fullKey, body });
export const assign = (id: string, body: unknown, pid = projectId) =>
  t.request('POST', `${jobsPath(pid)}/${id}/assign`, { token: keys.fullKey, body });
export const unassign = (id: string, body: unknown, pid = projectId) =>
  t.request('POST', `${jobsPath(pid)}/${id}/unassign`, { token: keys.fullKey, body });
export const occurrences = (id: string, query = '', pid = projectId) =>
  t.request('GET', `${jobsPath(pid)}/${id}/occurrences${query}`, { token: keys.readKey });
export const create = async (overrides: object = {}, pid = projectId, token = keys.fullKey) => {
  const res = await post({ ...valid(), ...overrides }, pid, token);
  expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: { id: expect.any(String) } });
  return res.body.id as string;
};
export const allOccurrences = async (id: string) => {
  const items: { date: string; flights: number; assigned_pilot_ids: string[] }[] = [];
  let cursor: string | null = null;
  do {
    const res = await occurrences(id, cursor ? `?cursor=${cursor}` : '');
    expect(res.status).toBe(200);
    items.push(...res.body.occurrences);
    cursor = res.body.cursor;
  } while (cursor);
  return items;
};
export const expect404 = (res: { status: number; body: unknown }, message: string) =>
  expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message } });
