import { webhookStream } from '@app/domain';
import { GetWebhookHandler } from '../get-webhook/get-webhook.handler';
import { GetWebhookQuery } from '../get-webhook/get-webhook.query';
import { useWebhookFixture } from '../webhook-handlers.spec-helper';
import { DeleteWebhookCommand } from './delete-webhook.command';
import { DeleteWebhookHandler } from './delete-webhook.handler';

describe('DeleteWebhookHandler (embedded SQLite)', () => {
  const fixture = useWebhookFixture();
  const { stores } = fixture;
  const handler = () => new DeleteWebhookHandler(stores.repository, stores.clock);

  it('records webhook.deleted; the webhook is then gone from reads and from a second delete', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await fixture.create(context);
    const get = new GetWebhookHandler(stores.read, fixture.queue);
    await stores.settle();
    await expect(get.execute(new GetWebhookQuery(ws, id))).resolves.toMatchObject({ id });

    await handler().execute(new DeleteWebhookCommand(context, id));

    expect(await stores.eventTypes(webhookStream(id))).toEqual(['webhook.created', 'webhook.deleted']);
    await stores.settle();
    await expect(get.execute(new GetWebhookQuery(ws, id))).rejects.toThrow('Webhook not found');
    await expect(handler().execute(new DeleteWebhookCommand(context, id))).rejects.toThrow('Webhook not found');
    expect(await stores.eventTypes(webhookStream(id))).toHaveLength(2);
  });

  it("does not delete another workspace's webhook", async () => {
    const { id: ws, context: owner } = await stores.workspace('Owner');
    const { context: stranger } = await stores.workspace('Stranger');
    const { id } = await fixture.create(owner);

    await expect(handler().execute(new DeleteWebhookCommand(stranger, id))).rejects.toThrow('Webhook not found');
    expect(await stores.eventTypes(webhookStream(id))).toEqual(['webhook.created']);
    await stores.settle();
    await expect(
      new GetWebhookHandler(stores.read, fixture.queue).execute(new GetWebhookQuery(ws, id)),
    ).resolves.toMatchObject({ id, status: 'active' });
  });
});
