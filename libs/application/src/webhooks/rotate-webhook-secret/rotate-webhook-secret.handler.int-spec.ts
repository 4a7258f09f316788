import { SECRET_ROTATION_OVERLAP_MS, webhookStream } from '@app/domain';
import { useWebhookFixture } from '../webhook-handlers.spec-helper';
import { RotateWebhookSecretCommand } from './rotate-webhook-secret.command';
import { RotateWebhookSecretHandler } from './rotate-webhook-secret.handler';

describe('RotateWebhookSecretHandler (embedded SQLite)', () => {
  const fixture = useWebhookFixture();
  const { stores } = fixture;
  const handler = () => new RotateWebhookSecretHandler(stores.repository, stores.clock, fixture.box);

  it('records webhook.secret_rotated with the new secret sealed; the old one signs until the overlap ends', async () => {
    const { context } = await stores.workspace();
    const created = await fixture.create(context);
    stores.clock.at += 5_000;

    const rotated = await handler().execute(new RotateWebhookSecretCommand(context, created.id));

    expect(rotated.id).toBe(created.id);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret_expires_at).toBe(stores.clock.at + SECRET_ROTATION_OVERLAP_MS);
    const events = await stores.events.readStream(webhookStream(created.id));
    expect(events.map((e) => e.type)).toEqual(['webhook.created', 'webhook.secret_rotated']);
    const sealed = (events[1].data as { sealed_secret: string }).sealed_secret;
    expect(JSON.stringify(events[1].data)).not.toContain(rotated.secret);
    expect(fixture.box.open(sealed, created.id)).toBe(rotated.secret);
  });

  it("does not rotate another workspace's webhook, nor a missing one", async () => {
    const { context: owner } = await stores.workspace('Owner');
    const { context: stranger } = await stores.workspace('Stranger');
    const created = await fixture.create(owner);

    await expect(handler().execute(new RotateWebhookSecretCommand(stranger, created.id))).rejects.toThrow(
      'Webhook not found',
    );
    await expect(handler().execute(new RotateWebhookSecretCommand(owner, 'whk_missing'))).rejects.toThrow(
      'Webhook not found',
    );
    expect(await stores.eventTypes(webhookStream(created.id))).toEqual(['webhook.created']);
  });
});
