import { t, keys, useWebhooksApp, get, create } from './webhooks-fixture';

describe('Webhooks (docs/api.md, Webhooks) over HTTP', () => {
  useWebhooksApp();

  describe('DELETE /webhooks/{id}', () => {
    it('answers 204 with an empty body; afterwards the webhook is gone', async () => {
      const { id } = await create();
      const res = await t.request('DELETE', `/v1/webhooks/${id}`, { token: keys.fullKey });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get(id)).status).toBe(404);
    });
  });
});
