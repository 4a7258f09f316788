import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { HttpsReceiver, ReceivedRequest } from '../support/https-receiver';
import { ServiceProcess } from '../support/service-process';

/**
 * Real deliveries: the built service runs as a child process, and a real HTTPS receiver with a
 * self-signed certificate listens on loopback. The service trusts that certificate only through
 * NODE_EXTRA_CA_CERTS, which Node reads at process start: that is why the service is a child
 * process here and not an in-process TestApp (no test-only trust option exists in the transport).
 * Loopback targets need WEBHOOK_ALLOW_PRIVATE_TARGETS=true, except where the refusal is the point.
 */
const ADMIN_TOKEN = 'adm_webhook_delivery_e2e';
const ALL_PROJECT_TYPES = ['project.created', 'project.updated', 'project.deleted'];

describe('Webhook deliveries to a real HTTPS receiver', () => {
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    receiver = await HttpsReceiver.start();
  });
  afterAll(() => receiver.close());

  const serviceEnv = (dataDir: string, overrides: Record<string, string> = {}) => ({
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
  const client = (service: () => ServiceProcess) => {
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

  const verify = (request: ReceivedRequest, secret: string) =>
    new Webhook(secret).verify(request.body, request.headers) as Record<string, any>;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
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

  describe('one service, short retry delays, pause after 3 failures', () => {
    let service: ServiceProcess;
    let dataDir: string;
    const api = client(() => service);

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'wos-webhooks-'));
      service = await ServiceProcess.start(serviceEnv(dataDir));
    });
    afterAll(async () => {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('as a new user: subscribe, create a project, receive the signed delivery, read the attempt log', async () => {
      const key = await api.provision('First user');
      const hook = await api.subscribe(key, '/first');
      const projectId = await api.createProject(key);
      const [request] = await receiver.waitFor('/first', 1);

      const payload = verify(request, hook.secret);
      const project = await api.call('GET', `/v1/projects/${projectId}`, key);
      expect(payload).toEqual({ type: 'project.created', timestamp: expect.any(String), data: project.body });
      expect(Math.abs(Date.parse(payload.timestamp) - project.body.created)).toBeLessThan(1000);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

      const log = await eventually(async () => {
        const res = await api.call('GET', `/v1/webhooks/${hook.id}/deliveries`, key);
        expect(res.body.count).toBe(1);
        return res.body;
      });
      expect(log.deliveries[0]).toEqual({
        delivery_id: request.headers['webhook-id'],
        event_type: 'project.created',
        attempt: 1,
        attempted_at: expect.any(Number),
        succeeded: true,
        response_status: 204,
        response_body: '',
        duration_ms: expect.any(Number),
        error: null,
        next_retry_at: null,
      });
      const webhook = await eventually(async () => {
        const res = await api.call('GET', `/v1/webhooks/${hook.id}`, key);
        expect(res.body.last_triggered_at).toBe(log.deliveries[0].attempted_at);
        return res.body;
      });
      expect(webhook).toMatchObject({ status: 'active', failure_count: 0 });

      // Operators see it in /metrics.
      const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    });

    it('sends each change with the resource exactly as of its event; a deletion carries the id', async () => {
      const key = await api.provision('Changes');
      const hook = await api.subscribe(key, '/changes');
      const projectId = await api.createProject(key);
      await api.call('PATCH', `/v1/projects/${projectId}`, key, { name: 'First name' });
      await api.call('PATCH', `/v1/projects/${projectId}`, key, { name: 'Second name', laanc_number: 'L-9' });
      await api.call('POST', `/v1/projects/${projectId}/archive`, key, { archived: true });
      await api.call('DELETE', `/v1/projects/${projectId}`, key);
      const payloads = (await receiver.waitFor('/changes', 5)).map((r) => verify(r, hook.secret));
      const byType = (type: string) => payloads.filter((p) => p.type === type).map((p) => p.data);
      expect(byType('project.created')).toEqual([
        expect.objectContaining({ id: projectId, name: 'Dam inspection', archived: false }),
      ]);
      const updates = byType('project.updated').map((d) => [d.name, d.laanc_number, d.archived]);
      expect(updates).toHaveLength(3);
      expect(updates).toEqual(
        expect.arrayContaining([
          ['First name', null, false],
          ['Second name', 'L-9', false],
          ['Second name', 'L-9', true],
        ]),
      );
      expect(byType('project.deleted')).toEqual([{ id: projectId }]);
      expect(new Set(receiver.received('/changes').map((r) => r.headers['webhook-id'])).size).toBe(5);
    });

    it('gives nothing to a subscription without the type, a paused one, or another workspace’s', async () => {
      const key = await api.provision('Filters');
      const otherKey = await api.provision('Elsewhere');
      await api.subscribe(key, '/without-type', ['project.deleted', 'job.created']);
      const paused = await api.subscribe(key, '/paused', ['project.created']);
      expect((await api.call('PATCH', `/v1/webhooks/${paused.id}`, key, { status: 'paused' })).status).toBe(200);
      await api.subscribe(otherKey, '/other-workspace', ['project.created']);
      await api.subscribe(key, '/control', ['project.created']);
      await api.createProject(key);
      await receiver.waitFor('/control', 1);
      await sleep(500);
      expect(receiver.received('/without-type')).toEqual([]);
      expect(receiver.received('/paused')).toEqual([]);
      expect(receiver.received('/other-workspace')).toEqual([]);
    });

    it('counts consecutive failures up to the pause; re-activation resets the count; recover re-sends', async () => {
      const startedAt = Date.now();
      let healthy = false;
      receiver.respond('/failing', () =>
        healthy ? { status: 200, body: 'thanks' } : { status: 500, body: 'receiver broke' },
      );
      const key = await api.provision('Failing');
      const hook = await api.subscribe(key, '/failing', ['project.created']);
      await api.createProject(key, 'Before the pause');
      const failed = await receiver.waitFor('/failing', 3);
      const webhook = await eventually(async () => {
        const res = await api.call('GET', `/v1/webhooks/${hook.id}`, key);
        expect(res.body.status).toBe('paused');
        return res.body;
      });
      expect(webhook.failure_count).toBe(3);
      const log = (await api.call('GET', `/v1/webhooks/${hook.id}/deliveries`, key)).body.deliveries;
      expect(log.map((a: { attempt: number }) => a.attempt)).toEqual([3, 2, 1]);
      expect(
        log.every(
          (a: { succeeded: boolean; response_status: number; response_body: string }) =>
            !a.succeeded && a.response_status === 500 && a.response_body === 'receiver broke',
        ),
      ).toBe(true);
      expect(log[2].next_retry_at).toBeGreaterThanOrEqual(log[2].attempted_at + 100);
      expect(new Set(failed.map((r) => r.headers['webhook-id'])).size).toBe(1); // one delivery, retried

      await api.createProject(key, 'While paused');
      await sleep(500);
      expect(receiver.received('/failing')).toHaveLength(3);

      healthy = true;
      expect((await api.call('PATCH', `/v1/webhooks/${hook.id}`, key, { status: 'active' })).status).toBe(200);
      expect((await api.call('GET', `/v1/webhooks/${hook.id}`, key)).body).toMatchObject({
        status: 'active',
        failure_count: 0,
      });
      const recovered = await api.call('POST', `/v1/webhooks/${hook.id}/recover`, key, { since: startedAt });
      expect(recovered).toEqual({ status: 202, body: { message: '1 failed delivery queued again', count: 1 } });
      const [, , , resent] = await receiver.waitFor('/failing', 4);
      expect(resent.headers['webhook-id']).toBe(failed[0].headers['webhook-id']);
      expect(verify(resent, hook.secret).data.name).toBe('Before the pause');
      await eventually(async () => {
        const res = await api.call('GET', `/v1/webhooks/${hook.id}/deliveries`, key);
        expect(res.body.deliveries[0]).toMatchObject({
          attempt: 4,
          succeeded: true,
          response_status: 200,
          response_body: 'thanks',
        });
        expect((await api.call('GET', `/v1/webhooks/${hook.id}`, key)).body).toMatchObject({
          status: 'active',
          failure_count: 0,
          last_triggered_at: res.body.deliveries[0].attempted_at,
        });
      });
      // The stream holds the changes of state only; the four attempts are telemetry and the log.
      const history = (await api.call('GET', `/v1/webhooks/${hook.id}/history`, key)).body.history;
      expect(history.map((e: { type: string }) => e.type)).toEqual([
        'webhook.created',
        'webhook.auto_paused',
        'webhook.updated',
      ]);
      expect(history[1].change).toMatchObject({ reason: 'consecutive_failures', failure_count: 3 });
    });

    it('pauses at once on 410 Gone', async () => {
      receiver.respond('/gone', { status: 410 });
      const key = await api.provision('Gone');
      const hook = await api.subscribe(key, '/gone', ['project.created']);
      await api.createProject(key);
      await receiver.waitFor('/gone', 1);
      await eventually(async () => {
        expect((await api.call('GET', `/v1/webhooks/${hook.id}`, key)).body).toMatchObject({
          status: 'paused',
          failure_count: 1,
        });
      });
      await sleep(400);
      expect(receiver.received('/gone')).toHaveLength(1);
    });

    it('waits as long as Retry-After asks on 503', async () => {
      receiver.respond('/busy', (_r, n) =>
        n === 1 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 204 },
      );
      const key = await api.provision('Busy');
      await api.subscribe(key, '/busy', ['project.created']);
      await api.createProject(key);
      const [first, second] = await receiver.waitFor('/busy', 2);
      expect(second.at - first.at).toBeGreaterThanOrEqual(950);
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    });

    it('does not follow a redirect, not even to another (here: internal) host', async () => {
      receiver.respond('/redirect', { status: 302, headers: { location: receiver.url('/internal') } });
      const key = await api.provision('Redirect');
      const hook = await api.subscribe(key, '/redirect', ['project.created']);
      await api.createProject(key);
      await receiver.waitFor('/redirect', 1);
      const attempt = await eventually(async () => {
        const res = await api.call('GET', `/v1/webhooks/${hook.id}/deliveries`, key);
        expect(res.body.count).toBeGreaterThan(0);
        return res.body.deliveries[res.body.count - 1];
      });
      expect(attempt).toMatchObject({ succeeded: false, response_status: 302, error: 'Redirect (302) not followed' });
      expect(receiver.received('/internal')).toEqual([]);
    });

    it('delivers jobs and job types as GET shows them, and their deletions by id (and project_id)', async () => {
      const key = await api.provision('Jobs');
      const hook = await api.subscribe(key, '/jobs', [
        'job.created',
        'job.updated',
        'job.deleted',
        'job_type.created',
        'job_type.deleted',
      ]);
      const projectId = await api.createProject(key);
      const jobType = await api.call('POST', '/v1/job-types', key, { name: 'Bridge deck', icon: 'hammer' });
      expect(jobType.status).toBe(201);
      const today = new Date().toISOString().slice(0, 10);
      const job = await api.call('POST', `/v1/projects/${projectId}/jobs`, key, {
        name: 'Deck scan',
        type: jobType.body.id,
        job_pattern: 'one_time',
        start_date: today,
      });
      expect(job.status).toBe(201);
      const shown = await api.call('GET', `/v1/projects/${projectId}/jobs/${job.body.id}`, key);
      expect(
        (await api.call('PATCH', `/v1/projects/${projectId}/jobs/${job.body.id}`, key, { priority: 'high' })).status,
      ).toBe(200);
      expect((await api.call('DELETE', `/v1/projects/${projectId}/jobs/${job.body.id}`, key)).status).toBe(204);
      expect((await api.call('DELETE', `/v1/job-types/${jobType.body.id}`, key)).status).toBe(204);

      const payloads = (await receiver.waitFor('/jobs', 5)).map((r) => verify(r, hook.secret));
      const of = (type: string) => payloads.filter((p) => p.type === type).map((p) => p.data);
      expect(of('job_type.created')).toEqual([
        { id: jobType.body.id, name: 'Bridge deck', icon: 'hammer', is_predefined: false },
      ]);
      expect(of('job.created')).toEqual([shown.body]);
      expect(of('job.updated')).toEqual([{ ...shown.body, priority: 'high', updated: expect.any(Number) }]);
      expect(of('job.deleted')).toEqual([{ id: job.body.id, project_id: projectId }]);
      expect(of('job_type.deleted')).toEqual([{ id: jobType.body.id }]);
    });

    it('sends a signed test delivery on request', async () => {
      const key = await api.provision('Tester');
      const hook = await api.subscribe(key, '/test-endpoint', ['job.created']);
      const res = await api.call('POST', `/v1/webhooks/${hook.id}/test`, key);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        message: 'Test delivery succeeded',
        delivery: { event_type: 'webhook.test', succeeded: true, response_status: 204 },
      });
      const [request] = receiver.received('/test-endpoint');
      expect(verify(request, hook.secret)).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
    });

    it('signs with both the new and the previous secret after a rotation', async () => {
      const key = await api.provision('Rotation');
      const hook = await api.subscribe(key, '/rotation', ['project.created']);
      const rotated = await api.call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, key);
      expect(rotated.status).toBe(200);
      await api.createProject(key);
      const [request] = await receiver.waitFor('/rotation', 1);
      expect(request.headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(verify(request, rotated.body.secret).type).toBe('project.created');
      expect(verify(request, hook.secret).type).toBe('project.created');
    });
  });

  describe('restarts', () => {
    it('loses no delivery when the service is killed in the middle of retries, and re-checks targets at delivery time', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'wos-webhooks-restart-'));
      const env = serviceEnv(dataDir, {
        WEBHOOK_RETRY_DELAYS_MS: '0,1000,1000,1000,1000',
        WEBHOOK_PAUSE_AFTER_FAILURES: '10',
      });
      let up = false;
      receiver.respond('/restart', () => (up ? { status: 204 } : { status: 503 }));
      let service = await ServiceProcess.start(env);
      const api = client(() => service);
      try {
        const key = await api.provision('Crash');
        const hook = await api.subscribe(key, '/restart', ['project.created']);
        for (let i = 0; i < 3; i++) await api.createProject(key, `Project ${i}`);
        const firstTries = await receiver.waitFor('/restart', 3);
        const ids = new Set(firstTries.map((r) => r.headers['webhook-id']));
        expect(ids.size).toBe(3);
        await sleep(150); // the failures are settled; the retries are a second away
        expect(await service.stop('SIGKILL')).toBeNull();

        up = true;
        service = await ServiceProcess.start(env);
        const deliveredAfterRestart = async () => {
          const ok = receiver.received('/restart').filter((r) => r.at > firstTries[2].at);
          expect(new Set(ok.map((r) => r.headers['webhook-id']))).toEqual(ids);
          return ok;
        };
        const resent = await eventually(deliveredAfterRestart);
        for (const request of resent) expect(verify(request, hook.secret).type).toBe('project.created');
        await service.stop();

        // The same subscription, now with private targets refused: checked again at delivery time.
        service = await ServiceProcess.start({ ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
        const before = receiver.received('/restart').length;
        await api.createProject(key, 'Refused target');
        const refused = await eventually(async () => {
          const res = await api.call('GET', `/v1/webhooks/${hook.id}/deliveries`, key);
          expect(res.body.deliveries[0].error).toMatch(/^Refused: 127\.0\.0\.1 resolves to a loopback address$/);
          return res.body.deliveries[0];
        });
        expect(refused).toMatchObject({ succeeded: false, response_status: null });
        expect(receiver.received('/restart')).toHaveLength(before);
      } finally {
        await service.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
