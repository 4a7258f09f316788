import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createdByOf, parseWebhookUrl, webhookDecider, webhookStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { WEBHOOK_SECRET_BOX, WebhookSecretBox } from '../../ports/webhook-secrets.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { requireWorkspace } from '../../shared/tenant';
import { LiveWebhook } from '../webhook-access';
import { WebhookTargetGuard } from '../webhook-target-guard';
import { generateWebhookSecret } from '../webhook-signature';
import { CreatedWebhook, CreateWebhookCommand } from './create-webhook.command';

@CommandHandler(CreateWebhookCommand)
export class CreateWebhookHandler implements ICommandHandler<CreateWebhookCommand, CreatedWebhook> {
  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly guard: WebhookTargetGuard,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(WEBHOOK_SECRET_BOX) private readonly secretBox: WebhookSecretBox,
  ) {}

  async execute({ context, input }: CreateWebhookCommand): Promise<CreatedWebhook> {
    const workspaceId = requireWorkspace(context);
    await this.guard.assertAllowed(parseWebhookUrl(input.url));
    const id = this.ids.next('whk');
    const secret = generateWebhookSecret();
    const { id: creatorId, email, first_name, last_name } = createdByOf(context.actor);
    const outcome = await this.repository.execute(
      webhookDecider,
      webhookStream(id),
      {
        type: 'CreateWebhook',
        id,
        workspaceId,
        name: input.name,
        url: input.url,
        eventTypes: input.event_types,
        sealedSecret: this.secretBox.seal(secret, id),
        createdBy: { id: creatorId, email, first_name, last_name },
        now: this.clock.now(),
      },
      context,
    );
    const { fields } = outcome.state as LiveWebhook;
    return {
      id,
      name: fields.name,
      url: fields.url,
      event_types: fields.event_types,
      status: fields.status,
      secret,
      created: fields.created,
    };
  }
}
