import { UpdateWebhookCommand } from '../update-webhook/update-webhook.command';
import { UpdateWebhookHandler } from '../update-webhook/update-webhook.handler';
import { onOwnWebhook } from '../webhook-access';
import { useWebhookFixture } from '../webhook-handlers.spec-helper';
import { GetWebhookPauseQuery } from './get-webhook-pause.query';
import { GetWebhookPauseHandler } from './get-webhook-pause.handler';

describe('GetWebhookPauseHandler (embedded SQLite)', () => {
  const fixture = useWebhookFixture();
  const { stores } = fixture;
  const handler = () => new GetWebhookPauseHandler(stores.read, stores.events);
  const update = () => new UpdateWebhookHandler(stores.repository, fixture.guard, stores.clock, fixture.queue);

  beforeEach(() => fixture.queue.init());

  it('says nothing of an active webhook', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await fixture.create(context);
    await stores.settle();
    expect(await handler().execute(new GetWebhookPauseQuery(ws, id))).toBeNull();
  });

  it('names the member who paused it, and when', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await fixture.create(context);
    stores.clock.at += 1_000;
    await update().execute(new UpdateWebhookCommand(context, id, { status: 'paused' }));
    await stores.settle();
    expect(await handler().execute(new GetWebhookPauseQuery(ws, id))).toEqual({
      reason: 'by_hand',
      at: stores.clock.at,
      actor: context.actor,
    });
  });

  it('gives the service’s reason for the latest pause, after a re-activation', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await fixture.create(context);
    await update().execute(new UpdateWebhookCommand(context, id, { status: 'paused' }));
    await update().execute(new UpdateWebhookCommand(context, id, { status: 'active' }));
    stores.clock.at += 5_000;
    await onOwnWebhook(stores.repository, context, id, {
      type: 'AutoPauseWebhook',
      reason: 'consecutive_failures',
      failureCount: 5,
      now: stores.clock.at,
    });
    await stores.settle();
    expect(await handler().execute(new GetWebhookPauseQuery(ws, id))).toEqual({
      reason: 'consecutive_failures',
      at: stores.clock.at,
      failure_count: 5,
    });
  });

  it("answers another workspace's webhook as not found", async () => {
    const { context: owner } = await stores.workspace('Owner');
    const { id: stranger } = await stores.workspace('Stranger');
    const { id } = await fixture.create(owner);
    await update().execute(new UpdateWebhookCommand(owner, id, { status: 'paused' }));
    await stores.settle();
    await expect(handler().execute(new GetWebhookPauseQuery(stranger, id))).rejects.toThrow('Webhook not found');
  });
});
