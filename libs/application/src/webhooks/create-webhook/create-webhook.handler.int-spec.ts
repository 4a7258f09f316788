import { webhookStream, WebhookView } from '@app/domain';
import { START } from '../../ports/event-store.port';
import { WEBHOOKS } from '../webhook.projector';
import { PUBLIC_URL, useWebhookFixture } from '../webhook-handlers.spec-helper';

describe('CreateWebhookHandler (embedded SQLite)', () => {
  const fixture = useWebhookFixture();
  const { stores } = fixture;

  it('records webhook.created with the secret sealed, and answers the secret once', async () => {
    const { id: ws, context } = await stores.workspace();
    const created = await fixture.create(context);

    expect(created).toMatchObject({ name: 'Spec hook', url: PUBLIC_URL, status: 'active' });
    const [event, ...more] = await stores.events.readStream(webhookStream(created.id));
    expect(more).toEqual([]);
    expect(event.type).toBe('webhook.created');
    expect(event.metadata.workspaceId).toBe(ws);
    // The history holds the sealed form only; the box opens it to the answered secret.
    const data = event.data as { sealed_secret: string };
    expect(JSON.stringify(event.data)).not.toContain(created.secret);
    expect(fixture.box.open(data.sealed_secret, created.id)).toBe(created.secret);

    await stores.settle();
    const view = await stores.read.get<WebhookView>(WEBHOOKS, created.id);
    expect(view).toMatchObject({ workspaceId: ws, doc: { id: created.id, url: PUBLIC_URL, failure_count: 0 } });
  });

  it('refuses a URL that points inside the network and writes nothing', async () => {
    const { context } = await stores.workspace();
    fixture.resolves.set('intranet.example.com', ['10.1.2.3']);
    for (const url of ['https://10.0.0.1/in', 'https://localhost/in', 'https://intranet.example.com/in']) {
      await expect(fixture.create(context, url)).rejects.toThrow('url must not point to a private');
    }
    expect(await stores.read.find(WEBHOOKS, { limit: 10 })).toEqual([]);
    expect((await stores.events.readAll({ after: START, maxCount: 100 })).map((e) => e.type)).toEqual([
      'workspace.created',
    ]);
  });

  it('accepts a name that does not resolve yet (DNS is often set up after the subscription)', async () => {
    const { context } = await stores.workspace();
    const created = await fixture.create(context, 'https://not-yet.example.com/in');
    expect(await stores.eventTypes(webhookStream(created.id))).toEqual(['webhook.created']);
  });
});
