import { t, keys, useWebhooksApp, get, patch, create } from './webhooks-fixture';

describe('Webhooks (docs/api.md, Webhooks) over HTTP', () => {
  useWebhooksApp();

  describe('another workspace’s or a missing webhook', () => {
    it('is 404 Webhook not found for every operation, and stays untouched', async () => {
      const other = await t.provision({ name: 'Other' });
      const theirs = await create({}, other.fullKey);
      const notFound = { status: 404, body: { message: 'Webhook not found' } };
      for (const id of [theirs.id, 'whk_missing']) {
        expect(await get(id)).toMatchObject(notFound);
        expect(await patch(id, { name: 'Mine now' })).toMatchObject(notFound);
        expect(await patch(id, { url: 'https://127.0.0.1/x' })).toMatchObject(notFound);
        expect(await t.request('DELETE', `/v1/webhooks/${id}`, { token: keys.fullKey })).toMatchObject(notFound);
        expect(await t.request('POST', `/v1/webhooks/${id}/test`, { token: keys.fullKey })).toMatchObject(notFound);
        expect(await t.request('GET', `/v1/webhooks/${id}/deliveries`, { token: keys.fullKey })).toMatchObject(
          notFound,
        );
        expect(
          await t.request('POST', `/v1/webhooks/${id}/recover`, { token: keys.fullKey, body: { since: 0 } }),
        ).toMatchObject(notFound);
        expect(await t.request('POST', `/v1/webhooks/${id}/rotate-secret`, { token: keys.fullKey })).toMatchObject(
          notFound,
        );
      }
      expect((await get(theirs.id, other.readKey)).body.name).toBe('Ops feed');
    });
  });
});
