import { Keys, TestApp, useProvisionedApp } from '../../support/test-app';

/**
 * The set-up the webhook API e2e files share (docs/api.md, Webhooks): a service on loopback with
 * one provisioned workspace, a valid subscription body and the request helpers. Subscription
 * URLs point at names that never resolve (`.invalid`), so nothing leaves the machine; real
 * deliveries are in the delivery-*.e2e-spec.ts files beside these. `useWebhooksApp()` starts the
 * service before the calling file's tests and stops it after; the bindings below are live.
 */

export const TYPES =
  'project.created, project.updated, project.deleted, job.created, job.updated, job.deleted, job_type.created, job_type.deleted';
export const NOT_PUBLIC = 'url must not point to a private, loopback, link-local or otherwise internal address';

export type { Keys };

export let t: TestApp;
export let keys: Keys;
export const valid = {
  name: 'Ops feed',
  url: 'https://hooks.example.invalid/in',
  event_types: ['project.created', 'project.updated'],
};

export function useWebhooksApp() {
  ({ t, keys } = useProvisionedApp());
}

export const post = (body: unknown, token = keys.fullKey) => t.request('POST', '/v1/webhooks', { token, body });
export const get = (id: string, token = keys.fullKey) => t.request('GET', `/v1/webhooks/${id}`, { token });
export const patch = (id: string, body: unknown, token = keys.fullKey) =>
  t.request('PATCH', `/v1/webhooks/${id}`, { token, body });
export const create = async (overrides: object = {}, token = keys.fullKey) => {
  const res = await post({ ...valid, ...overrides }, token);
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
};
