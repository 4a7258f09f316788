import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { HttpsReceiver, ReceivedRequest } from '../../support/https-receiver';
import { ServiceProcess } from '../../support/service-process';

/**
 * The set-up the delivery e2e files share. Real deliveries: the built service runs as a child
 * process, and a real HTTPS receiver with a self-signed certificate listens on loopback. The
 * service trusts that certificate only through NODE_EXTRA_CA_CERTS, which Node reads at process
 * start: that is why the service is a child process here and not an in-process TestApp (no
 * test-only trust option exists in the transport). Loopback targets need
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true, except where the refusal is the point.
 * `useReceiver()` and `useDeliveryService()` start them before the calling file's tests and stop
 * them after; the bindings below are live, so the helpers read the current file's values.
 */
export const ADMIN_TOKEN = 'adm_webhook_delivery_e2e';
export const ALL_PROJECT_TYPES = ['project.created', 'project.updated', 'project.deleted'];

export let receiver: HttpsReceiver;
/** The service of `useDeliveryService()`, with short retry delays and a pause after 3 failures. */
export let service: ServiceProcess;

export function useReceiver() {
  beforeAll(async () => {
    receiver = await HttpsReceiver.start();
  });
  afterAll(() => receiver.close());
}

export const serviceEnv = (dataDir: string, overrides: Record<string, string> = {}) => ({
  DATA_DIR: dataDir,
  ADMIN_TOKEN,
  NODE_EXTRA_CA_CERTS: receiver.caFile,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_DELAYS_MS: '0,150,150,150,150,150',
  WEBHOOK_PAUSE_AFTER_FAILURES: '3',
  LOG_LEVEL: 'warn',
  ...overrides,
});

/** Talks to one service process as a client would. */
export const client = (service: () => ServiceProcess) => {
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${service().baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const provision = async (name: string) => {
    const ws = await call('POST', '/v1/admin/workspaces', ADMIN_TOKEN, { name, plan: 'enterprise' });
    const key = await call('POST', `/v1/admin/workspaces/${ws.body.id}/api-keys`, ADMIN_TOKEN, {
      name: 'Ops bot',
      scope: 'full_access',
    });
    return key.body.key as string;
  };
  const subscribe = async (key: string, path: string, eventTypes: string[] = ALL_PROJECT_TYPES) => {
    const res = await call('POST', '/v1/webhooks', key, {
      name: `Hook ${path}`,
      url: receiver.url(path),
      event_types: eventTypes,
    });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, secret: res.body.secret as string };
  };
  const createProject = async (key: string, name = 'Dam inspection') => {
    const res = await call('POST', '/v1/projects', key, {
      name,
      description: 'Spillway',
      status: 'planned',
      start_date: '2026-12-01',
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  return { call, provision, subscribe, createProject };
};

/** The verified payload; its shape is what the assertions check, so it is left untyped. */
export const verify = (request: ReceivedRequest, secret: string) =>
  new Webhook(secret).verify(request.body, request.headers) as Record<string, any>;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}

/** One service for the calling file's tests, in a data directory of its own. */
export function useDeliveryService() {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'wos-webhooks-'));
    service = await ServiceProcess.start(serviceEnv(dataDir));
  });
  afterAll(async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

export const api = client(() => service);
