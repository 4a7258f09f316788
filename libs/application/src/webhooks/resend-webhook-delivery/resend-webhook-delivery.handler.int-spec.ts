import { NewDelivery } from '../../ports/webhook-queue.port';
import { UpdateWebhookCommand } from '../update-webhook/update-webhook.command';
import { UpdateWebhookHandler } from '../update-webhook/update-webhook.handler';
import { useWebhookFixture } from '../webhook-handlers.spec-helper';
import { ResendWebhookDeliveryCommand } from './resend-webhook-delivery.command';
import {
  ResendWebhookDeliveryHandler,
  WEBHOOK_DELIVERY_ALREADY_QUEUED,
  WEBHOOK_DELIVERY_NOT_FOUND,
  WEBHOOK_PAUSED_CANNOT_RESEND,
} from './resend-webhook-delivery.handler';

describe('ResendWebhookDeliveryHandler (embedded SQLite)', () => {
  const fixture = useWebhookFixture();
  const { stores } = fixture;
  let wakes = 0;
  const handler = () =>
    new ResendWebhookDeliveryHandler(stores.repository, fixture.queue, { wake: () => void wakes++ }, stores.clock);

  beforeEach(async () => {
    wakes = 0;
    await fixture.queue.init();
  });

  /** A delivery of the webhook, queued by the fan-out, then failed for good by a worker. */
  async function failedDelivery(webhookId: string, workspaceId: string): Promise<NewDelivery> {
    const delivery: NewDelivery = {
      id: 'msg_resend_1',
      webhookId,
      workspaceId,
      eventId: 'evt_1',
      eventType: 'project.created',
      payload: '{"type":"project.created"}',
      createdAt: stores.clock.at,
      nextAttemptAt: stores.clock.at,
    };
    await fixture.queue.acquireFanout('spec', stores.clock.at, 10_000);
    await fixture.queue.commitFanout('spec', {
      checkpoint: 1,
      upsertRoutes: [],
      removeRoutes: [],
      deliveries: [delivery],
    });
    const [claim] = await fixture.queue.claimDue('spec', stores.clock.at, 1, 10_000);
    await fixture.queue.settle(
      claim,
      {
        deliveryId: claim.id,
        webhookId,
        workspaceId,
        eventType: claim.eventType,
        attempt: 1,
        attemptedAt: stores.clock.at,
        durationMs: 5,
        succeeded: false,
        responseStatus: 500,
        responseBody: 'down',
        error: null,
        nextAttemptAt: null,
      },
      { status: 'failed', reason: 'Retries exhausted' },
    );
    return delivery;
  }

  it('queues the delivery again, due now, with the same id and payload, and wakes the dispatcher', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await fixture.create(context);
    const delivery = await failedDelivery(id, ws);
    stores.clock.at += 60_000;

    expect(await handler().execute(new ResendWebhookDeliveryCommand(context, id, delivery.id))).toEqual({
      delivery_id: delivery.id,
    });

    expect(wakes).toBe(1);
    expect(await fixture.queue.nextDueAt()).toBe(stores.clock.at);
    const [again] = await fixture.queue.claimDue('spec', stores.clock.at, 10, 10_000);
    expect(again).toMatchObject({ id: delivery.id, payload: delivery.payload, attempts: 1, roundStart: 1 });
  });

  it('refuses a delivery that is queued already, or that the webhook does not have', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await fixture.create(context);
    const delivery = await failedDelivery(id, ws);
    await handler().execute(new ResendWebhookDeliveryCommand(context, id, delivery.id));

    await expect(handler().execute(new ResendWebhookDeliveryCommand(context, id, delivery.id))).rejects.toThrow(
      WEBHOOK_DELIVERY_ALREADY_QUEUED,
    );
    await expect(handler().execute(new ResendWebhookDeliveryCommand(context, id, 'msg_missing'))).rejects.toThrow(
      WEBHOOK_DELIVERY_NOT_FOUND,
    );
  });

  it("answers another workspace's webhook as not found and queues nothing", async () => {
    const { id: ws, context: owner } = await stores.workspace('Owner');
    const { context: stranger } = await stores.workspace('Stranger');
    const { id } = await fixture.create(owner);
    const delivery = await failedDelivery(id, ws);

    await expect(handler().execute(new ResendWebhookDeliveryCommand(stranger, id, delivery.id))).rejects.toThrow(
      'Webhook not found',
    );
    expect(await fixture.queue.nextDueAt()).toBeNull();
    expect(wakes).toBe(0);
  });

  it('refuses while the webhook is paused, which would drop the delivery again', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await fixture.create(context);
    const delivery = await failedDelivery(id, ws);
    await new UpdateWebhookHandler(stores.repository, fixture.guard, stores.clock, fixture.queue).execute(
      new UpdateWebhookCommand(context, id, { status: 'paused' }),
    );

    await expect(handler().execute(new ResendWebhookDeliveryCommand(context, id, delivery.id))).rejects.toThrow(
      WEBHOOK_PAUSED_CANNOT_RESEND,
    );
    expect(await fixture.queue.nextDueAt()).toBeNull();
  });
});
