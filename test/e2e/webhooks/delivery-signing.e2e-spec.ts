import { receiver, useReceiver, useDeliveryService, verify, api } from './delivery-fixture';

describe('Webhook deliveries to a real HTTPS receiver', () => {
  useReceiver();

  describe('one service, short retry delays, pause after 3 failures', () => {
    useDeliveryService();

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
});
