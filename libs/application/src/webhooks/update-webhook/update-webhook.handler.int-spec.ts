import { webhookDecider, webhookStream, WebhookView } from '@app/domain';
import { WEBHOOKS } from '../webhook.projector';
import { PUBLIC_URL, useWebhookFixture } from '../webhook-handlers.spec-helper';
import { UpdateWebhookCommand } from './update-webhook.command';
import { UpdateWebhookHandler } from './update-webhook.handler';

describe('UpdateWebhookHandler (embedded SQLite)', () => {
  const fixture = useWebhookFixture();
  const { stores } = fixture;
  const handler = () => new UpdateWebhookHandler(stores.repository, fixture.guard, stores.clock, fixture.queue);

  it('records webhook.updated with the changes and answers the new revision', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await fixture.create(context);
    stores.clock.at += 1_000;

    const answer = await handler().execute(
      new UpdateWebhookCommand(context, id, { name: 'Renamed', status: 'paused' }),
    );

    const events = await stores.events.readStream(webhookStream(id));
    expect(events.map((e) => e.type)).toEqual(['webhook.created', 'webhook.updated']);
    expect(answer).toEqual({ revision: events[1].revision });
    expect(events[1].data).toMatchObject({ changes: { name: 'Renamed', status: 'paused' }, updated: stores.clock.at });
    await stores.settle();
    expect(await stores.read.get<WebhookView>(WEBHOOKS, id)).toMatchObject({
      workspaceId: ws,
      doc: { name: 'Renamed', status: 'paused', updated: stores.clock.at },
    });
  });

  it("answers another workspace's webhook, and a missing one, as not found, and writes nothing", async () => {
    const { context: owner } = await stores.workspace('Owner');
    const { context: stranger } = await stores.workspace('Stranger');
    const { id } = await fixture.create(owner);

    await expect(handler().execute(new UpdateWebhookCommand(stranger, id, { name: 'Taken' }))).rejects.toThrow(
      'Webhook not found',
    );
    // Existence is judged before the URL: a foreign id with a private URL is still "not found".
    await expect(
      handler().execute(new UpdateWebhookCommand(stranger, id, { url: 'https://10.0.0.1/in' })),
    ).rejects.toThrow('Webhook not found');
    await expect(handler().execute(new UpdateWebhookCommand(owner, 'whk_missing', { name: 'X' }))).rejects.toThrow(
      'Webhook not found',
    );
    expect(await stores.eventTypes(webhookStream(id))).toEqual(['webhook.created']);
  });

  it('judges a changed URL only: a private one is refused, the unchanged one is not looked up again', async () => {
    const { context } = await stores.workspace();
    const { id } = await fixture.create(context);

    await expect(
      handler().execute(new UpdateWebhookCommand(context, id, { url: 'https://127.0.0.1/in' })),
    ).rejects.toThrow('url must not point to a private');
    expect(await stores.eventTypes(webhookStream(id))).toEqual(['webhook.created']);

    // The name now resolves inside the network; sending the same URL again changes nothing about it.
    fixture.resolves.set('hooks.example.com', ['192.168.0.7']);
    await handler().execute(new UpdateWebhookCommand(context, id, { url: PUBLIC_URL, name: 'Same target' }));
    expect(await stores.eventTypes(webhookStream(id))).toEqual(['webhook.created', 'webhook.updated']);
  });

  it('refuses a change to a deleted webhook', async () => {
    const { context } = await stores.workspace();
    const { id } = await fixture.create(context);
    await stores.repository.execute(
      webhookDecider,
      webhookStream(id),
      { type: 'DeleteWebhook', now: stores.clock.now() },
      context,
    );
    await expect(handler().execute(new UpdateWebhookCommand(context, id, { name: 'Back' }))).rejects.toThrow(
      'Webhook not found',
    );
  });
});
