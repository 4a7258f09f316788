import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../../support/service-process';
import { receiver, useReceiver, serviceEnv, client, verify, sleep, eventually } from './delivery-fixture';

describe('Webhook deliveries to a real HTTPS receiver', () => {
  useReceiver();

  describe('restarts', () => {
    it('loses no delivery when the service is killed in the middle of retries and of an attempt, and re-checks targets at delivery time', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'wos-webhooks-restart-'));
      const env = serviceEnv(dataDir, {
        WEBHOOK_RETRY_DELAYS_MS: '0,1000,1000,1000,1000',
        WEBHOOK_PAUSE_AFTER_FAILURES: '10',
      });
      let up = false;
      // Two first attempts fail; the third is still waiting for its answer when the service dies:
      // its claim (a lease longer than the request timeout, 45 s) belongs to a dead process, and the
      // next one attempts it at once.
      receiver.respond('/restart', (_, n) => (up ? { status: 204 } : { status: 503, delayMs: n === 3 ? 20_000 : 0 }));
      let service = await ServiceProcess.start(env);
      const api = client(() => service);
      try {
        const key = await api.provision('Crash');
        const hook = await api.subscribe(key, '/restart', ['project.created']);
        for (let i = 0; i < 3; i++) await api.createProject(key, `Project ${i}`);
        const firstTries = await receiver.waitFor('/restart', 3);
        const ids = new Set(firstTries.map((r) => r.headers['webhook-id']));
        expect(ids.size).toBe(3);
        await sleep(150); // two failures are settled, their retries a second away; one attempt is in flight
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
