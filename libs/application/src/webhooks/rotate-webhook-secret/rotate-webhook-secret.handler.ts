import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SECRET_ROTATION_OVERLAP_MS } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { WEBHOOK_SECRET_BOX, WebhookSecretBox } from '../../ports/webhook-secrets.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { LiveWebhook, onOwnWebhook } from '../webhook-access';
import { generateWebhookSecret } from '../webhook-signature';
import { RotatedSecret, RotateWebhookSecretCommand } from './rotate-webhook-secret.command';

@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand, RotatedSecret> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_SECRET_BOX) private readonly secretBox: WebhookSecretBox,
  ) {}

  async execute({ context, webhookId }: RotateWebhookSecretCommand): Promise<RotatedSecret> {
    const secret = generateWebhookSecret();
    const outcome = await onOwnWebhook(this.repository, context, webhookId, {
      type: 'RotateWebhookSecret',
      sealedSecret: this.secretBox.seal(secret, webhookId),
      overlapMs: SECRET_ROTATION_OVERLAP_MS,
      now: this.clock.now(),
    });
    const { secrets } = outcome.state as LiveWebhook;
    return { id: webhookId, secret, previous_secret_expires_at: secrets.previous!.expiresAt };
  }
}
