import { receiver, useReceiver, useDeliveryService, verify, sleep, eventually, api } from './delivery-fixture';

describe('Webhook deliveries to a real HTTPS receiver', () => {
  useReceiver();

  describe('one service, short retry delays, pause after 3 failures', () => {
    useDeliveryService();

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
  });
});
