import { t, keys, useWebhooksApp, patch, create } from './webhooks-fixture';

describe('Webhooks (docs/api.md, Webhooks) over HTTP', () => {
  useWebhooksApp();

  describe('POST /webhooks/{id}/recover', () => {
    it.each<[string, object, string]>([
      ['no since', {}, 'since is required'],
      ['a text since', { since: 'yesterday' }, 'since must be a timestamp in milliseconds'],
      ['a negative since', { since: -1 }, 'since must be a timestamp in milliseconds'],
      ['until before since', { since: 10, until: 5 }, 'until must be after since'],
    ])('refuses %s with 400', async (_name, body, message) => {
      const { id } = await create();
      const res = await t.request('POST', `/v1/webhooks/${id}/recover`, { token: keys.fullKey, body });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
    });

    it('answers 202 with the count, and 409 while the subscription is paused', async () => {
      const { id } = await create();
      const res = await t.request('POST', `/v1/webhooks/${id}/recover`, { token: keys.fullKey, body: { since: 0 } });
      expect({ status: res.status, count: res.body.count }).toEqual({ status: 202, count: 0 });
      await patch(id, { status: 'paused' });
      const paused = await t.request('POST', `/v1/webhooks/${id}/recover`, { token: keys.fullKey, body: { since: 0 } });
      expect(paused.status).toBe(409);
      expect(paused.body).toEqual({
        message: 'Webhook is paused; set its status to active before recovering deliveries',
      });
    });
  });
});
