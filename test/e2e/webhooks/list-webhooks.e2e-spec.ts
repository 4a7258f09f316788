import { t, useWebhooksApp, create } from './webhooks-fixture';

describe('Webhooks (docs/api.md, Webhooks) over HTTP', () => {
  useWebhooksApp();

  describe('GET /webhooks', () => {
    it('pages 50 at a time, without secrets, only the workspace’s own', async () => {
      const ws = await t.provision({ name: 'Many hooks' });
      const ids: string[] = [];
      for (let i = 0; i < 55; i++) ids.push((await create({ name: `Hook ${i}` }, ws.fullKey)).id);
      const first = await t.request('GET', '/v1/webhooks', { token: ws.readKey });
      expect(first.status).toBe(200);
      expect(first.body.count).toBe(50);
      expect(first.text).not.toContain('whsec_');
      expect(first.body.webhooks.every((w: object) => !('secret' in w))).toBe(true);
      const second = await t.request('GET', `/v1/webhooks?cursor=${first.body.cursor}`, { token: ws.readKey });
      expect(second.body).toMatchObject({ count: 5, cursor: null });
      expect([...first.body.webhooks, ...second.body.webhooks].map((w: { id: string }) => w.id)).toEqual(ids);
      expect((await t.request('GET', '/v1/webhooks?cursor=bogus!', { token: ws.readKey })).body).toEqual({
        message: 'cursor is invalid',
      });
    });
  });
});
