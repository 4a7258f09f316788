import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../support/service-process';

/**
 * Behind a reverse proxy every client arrives from the proxy's address: TRUST_PROXY says whose
 * X-Forwarded-For names the client, for the sandbox's per-IP limits and the request log. Here the
 * test is the proxy (it sends from 127.0.0.1 with the header a proxy would add).
 */

const ADMIN = 'adm_trust_proxy_test';
const PER_MINUTE = 3;

interface Client {
  forwardedFor: string;
  requestId: string;
}

/** The built service (sandbox profile unless `env` says otherwise), `PER_MINUTE` requests per client IP. */
async function behindProxy(
  env: Record<string, string>,
): Promise<{ service: ServiceProcess; key: string; keyId: string; workspaceId: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'wos-proxy-'));
  const service = await ServiceProcess.start({
    DATA_DIR: dir,
    ADMIN_TOKEN: ADMIN,
    DEPLOYMENT: 'sandbox',
    RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
    RATE_LIMIT_PER_SECOND: '1000',
    ...env,
  });
  const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) =>
    (await (
      await fetch(`${service.baseUrl}/v1/admin${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) })
    ).json()) as {
      id: string;
      key: string;
    };
  const ws = await post('/workspaces', { name: 'Behind a proxy', plan: 'enterprise' });
  const key = await post(`/workspaces/${ws.id}/api-keys`, { name: 'Field app', scope: 'full_access' });
  return { service, key: key.key, keyId: key.id, workspaceId: ws.id, dir };
}

/** A GET of /v1/projects as the proxy forwards it for `client`. */
const list = (service: ServiceProcess, key: string, client: Client, n: number) =>
  fetch(`${service.baseUrl}/v1/projects`, {
    headers: {
      authorization: `Bearer ${key}`,
      'x-forwarded-for': client.forwardedFor,
      'x-request-id': `${client.requestId}-${n}`,
    },
  }).then((res) => res.status);

/** The request log's lines of `requestId`-*, once written (the turn after the answers). */
async function requestLines(service: ServiceProcess, requestId: string, count: number) {
  const deadline = Date.now() + 5_000;
  const lines = () =>
    service.output
      .split('\n')
      .filter((line) => line.includes(`"req_id":"${requestId}-`))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  while (lines().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return lines();
}

const alice: Client = { forwardedFor: '203.0.113.10', requestId: 'alice' };
const bob: Client = { forwardedFor: '198.51.100.20', requestId: 'bob' };

describe('TRUST_PROXY: clients behind one proxy', () => {
  it('counts two clients behind a trusted proxy apart, and logs each one’s address with its key and workspace', async () => {
    const { service, key, keyId, workspaceId, dir } = await behindProxy({ TRUST_PROXY: '127.0.0.1' });
    try {
      const aliceStatuses: number[] = [];
      for (let n = 0; n <= PER_MINUTE; n++) aliceStatuses.push(await list(service, key, alice, n));
      expect(aliceStatuses).toEqual([...Array(PER_MINUTE).fill(200), 429]);
      // Alice's quota is spent; Bob, behind the same proxy, is still served.
      expect(await list(service, key, bob, 0)).toBe(200);

      const aliceLines = await requestLines(service, 'alice', PER_MINUTE + 1);
      const bobLines = await requestLines(service, 'bob', 1);
      expect(aliceLines.map((line) => line.client_ip)).toEqual(Array(PER_MINUTE + 1).fill('203.0.113.10'));
      expect(bobLines).toEqual([
        expect.objectContaining({ client_ip: '198.51.100.20', key_id: keyId, workspace_id: workspaceId, status: 200 }),
      ]);
      expect(service.output).not.toContain(key);
    } finally {
      await service.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('takes the client a trusted hop names, not the addresses a client put before it', async () => {
    const { service, key, dir } = await behindProxy({ TRUST_PROXY: '1' });
    try {
      // A client that sends its own X-Forwarded-For cannot pick its counter: the proxy appends
      // the address it saw, and only that entry is believed.
      const spoofing = (n: number): Client => ({ forwardedFor: `10.9.9.${n}, 203.0.113.30`, requestId: `spoof` });
      const statuses: number[] = [];
      for (let n = 0; n <= PER_MINUTE; n++) statuses.push(await list(service, key, spoofing(n), n));
      expect(statuses).toEqual([...Array(PER_MINUTE).fill(200), 429]);
      expect(await list(service, key, bob, 0)).toBe(200);
      const lines = await requestLines(service, 'spoof', PER_MINUTE + 1);
      expect(new Set(lines.map((line) => line.client_ip))).toEqual(new Set(['203.0.113.30']));
    } finally {
      await service.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('counts requests without a valid key per forwarded client in production too', async () => {
    const { service, key, dir } = await behindProxy({ TRUST_PROXY: '127.0.0.1', DEPLOYMENT: 'production' });
    try {
      const invalid = 'v1_not_a_key_of_this_service';
      const statuses: number[] = [];
      for (let n = 0; n <= PER_MINUTE; n++) statuses.push(await list(service, invalid, alice, n));
      expect(statuses).toEqual([...Array(PER_MINUTE).fill(403), 429]);
      // Another client's mistakes are its own; valid keys count per key.
      expect(await list(service, invalid, bob, 0)).toBe(403);
      expect(await list(service, key, alice, PER_MINUTE + 1)).toBe(200);
    } finally {
      await service.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('ignores X-Forwarded-For when TRUST_PROXY is off: every client counts as the peer it connects from', async () => {
    const { service, key, dir } = await behindProxy({});
    try {
      for (let n = 0; n < PER_MINUTE; n++) expect(await list(service, key, alice, n)).toBe(200);
      // Another X-Forwarded-For from the same peer is the same client: its quota is spent.
      expect(await list(service, key, bob, 0)).toBe(429);
      const lines = [...(await requestLines(service, 'alice', PER_MINUTE)), ...(await requestLines(service, 'bob', 1))];
      expect(new Set(lines.map((line) => line.client_ip))).toEqual(new Set(['127.0.0.1']));
    } finally {
      await service.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
