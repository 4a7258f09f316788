import { t, keys, useWebhooksApp, get, create } from './webhooks-fixture';

describe('Webhooks (docs/api.md, Webhooks) over HTTP', () => {
  useWebhooksApp();

  describe('POST /webhooks/{id}/rotate-secret', () => {
    it('shows a new secret once, and when the previous one stops signing', async () => {
      const { id, secret } = await create();
      const res = await t.request('POST', `/v1/webhooks/${id}/rotate-secret`, { token: keys.fullKey });
      expect(res.status).toBe(200);
      expect(res.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(res.body.secret).not.toBe(secret);
      expect(res.body.previous_secret_expires_at - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
      expect((await get(id)).text).not.toContain('whsec_');
    });
  });
});
