import { t, keys, useWebhooksApp, get, create } from './webhooks-fixture';

describe('Webhooks (docs/api.md, Webhooks) over HTTP', () => {
  useWebhooksApp();

  describe('POST /webhooks/{id}/test and GET /webhooks/{id}/deliveries', () => {
    it('reports a failed attempt (unresolvable host) and logs it', async () => {
      const { id } = await create();
      const res = await t.request('POST', `/v1/webhooks/${id}/test`, { token: keys.fullKey });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        message: 'Test delivery failed',
        delivery: {
          event_type: 'webhook.test',
          attempt: 1,
          succeeded: false,
          response_status: null,
          error: 'Could not resolve hooks.example.invalid',
        },
      });
      const log = await t.request('GET', `/v1/webhooks/${id}/deliveries`, { token: keys.readKey });
      expect(log.body).toMatchObject({ count: 1, cursor: null });
      expect(log.body.deliveries[0]).toEqual(res.body.delivery);
      const after = (await get(id)).body;
      expect(after.last_triggered_at).toBe(res.body.delivery.attempted_at);
      expect(after.failure_count).toBe(0); // a test never counts
    });
  });
});
