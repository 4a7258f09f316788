import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../support/service-process';
import { useProvisionedApp } from '../support/test-app';

describe('Observability: /ready, /metrics and the request log', () => {
  const { t, keys } = useProvisionedApp();

  it('answers /ready with the state of each check, without authentication', async () => {
    const res = await t.request('GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ready',
      role: 'projector',
      checks: { event_store: 'ok', read_models: 'ok', projections: 'ok' },
    });
  });

  it('exposes Prometheus metrics: request durations by route and status, append latency, projection lag', async () => {
    await t.request('POST', '/v1/projects', {
      token: keys.fullKey,
      body: { name: 'M', description: 'd', status: 'draft', start_date: '2026-01-01' },
    });
    await t.request('GET', '/v1/projects/prj_missing', { token: keys.fullKey });
    const res = await t.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/v1\/projects",status="201"\} 1/,
    );
    expect(res.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/v1\/projects\/:projectId",status="404"\} 1/,
    );
    expect(res.text).toMatch(/event_store_append_duration_seconds_count\{outcome="ok"\} \d+/);
    expect(res.text).toMatch(/projection_lag_positions\{projection="projects"\} 0/);
    expect(res.text).toMatch(/projection_lag_events\{projection="projects"\} 0/);
    expect(res.text).toMatch(/webhook_deliveries_total/);
    expect(res.text).toMatch(/process_resident_memory_bytes/);
  });
});

describe('The built service as a process', () => {
  it('logs JSON lines only, one per request with its request id, never a key, and shuts down gracefully on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wos-proc-'));
    const service = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN: 'adm_proc_test' });
    try {
      const base = service.baseUrl;
      const admin = { authorization: 'Bearer adm_proc_test', 'content-type': 'application/json' };
      const ws = (await (
        await fetch(`${base}/v1/admin/workspaces`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ name: 'Logs', plan: 'enterprise' }),
        })
      ).json()) as { id: string };
      const key = (await (
        await fetch(`${base}/v1/admin/workspaces/${ws.id}/api-keys`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ name: 'k', scope: 'full_access' }),
        })
      ).json()) as { key: string };
      const res = await fetch(`${base}/v1/projects`, {
        headers: { authorization: `Bearer ${key.key}`, 'x-request-id': 'trace-log-1' },
      });
      expect(res.status).toBe(200);
      // Written in the turn after the answer, not held for later lines or for the shutdown.
      const deadline = Date.now() + 5_000;
      while (!service.output.includes('"req_id":"trace-log-1"') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(service.output).toContain('"req_id":"trace-log-1"');

      expect(await service.stop('SIGTERM')).toBe(0);

      // One stream: NestJS's lines, the service's and the request log, each a JSON object of its own.
      const lines = service.output.split('\n').filter((l) => l !== '');
      expect(lines.filter((l) => !l.startsWith('{'))).toEqual([]);
      const entries = lines.map((l) => JSON.parse(l));
      expect(entries.find((l) => l.context === 'Main' && l.msg.startsWith('Listening on'))).toMatchObject({
        level: 30,
        service: 'workspace-operations',
      });
      expect(entries.find((l) => l.context === 'RoutesResolver')).toBeDefined();
      expect(entries.find((l) => l.req_id === 'trace-log-1')).toMatchObject({
        method: 'GET',
        route: '/v1/projects',
        status: 200,
        msg: 'request',
      });
      expect(service.output).not.toContain(key.key);
      expect(service.output).not.toContain('adm_proc_test');
    } finally {
      await service.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
