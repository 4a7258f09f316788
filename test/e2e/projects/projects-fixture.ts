import { Keys, TestApp, useProvisionedApp } from '../../support/test-app';

/**
 * The set-up the projects e2e files share (docs/api.md, Projects): a service on loopback with one
 * provisioned workspace, a valid body and the request helpers. `useProjectsApp()` starts the
 * service before the calling file's tests and stops it after; the bindings below are live, so
 * the helpers read the current file's values.
 */

export { STATUS_MESSAGE } from '../shared-refusals';

export type { Keys };

export let t: TestApp;
export let keys: Keys;
export const valid = {
  name: 'Bridge survey',
  description: 'Quarterly inspection',
  status: 'planned',
  start_date: '2026-03-01',
};

export function useProjectsApp() {
  ({ t, keys } = useProvisionedApp());
}

export const post = (body: unknown, token = keys.fullKey) => t.request('POST', '/v1/projects', { token, body });
export const get = (id: string, token = keys.fullKey) => t.request('GET', `/v1/projects/${id}`, { token });
export const patch = (id: string, body: unknown) =>
  t.request('PATCH', `/v1/projects/${id}`, { token: keys.fullKey, body });
export const create = async (overrides: object = {}, token = keys.fullKey) => {
  const res = await post({ ...valid, ...overrides }, token);
  expect(res.status).toBe(201);
  return res.body.id as string;
};
