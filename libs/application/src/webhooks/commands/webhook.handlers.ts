import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  conflict,
  createdByOf,
  notFound,
  parseWebhookUrl,
  SECRET_ROTATION_OVERLAP_MS,
  WEBHOOK_MESSAGES,
  WEBHOOK_NOT_FOUND,
  WebhookCommand,
  webhookDecider,
  WebhookState,
  webhookStream,
} from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../ports/webhook-queue.port';
import { WEBHOOK_SECRET_BOX, WebhookSecretBox } from '../../ports/webhook-secrets.port';
import { CommandContext } from '../../shared/command-context';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { ownedBy, requireWorkspace } from '../../shared/tenant';
import { WEBHOOK_DISPATCHER, WebhookDispatcher } from '../dispatch/webhook-dispatcher';
import { WebhookSender } from '../dispatch/webhook-sender';
import { WebhookTargetGuard } from '../webhook-target-guard';
import { generateWebhookSecret, randomMessageId } from '../webhook-signature';
import {
  CreatedWebhook,
  CreateWebhookCommand,
  DeleteWebhookCommand,
  RecoverWebhookDeliveriesCommand,
  RotatedSecret,
  RotateWebhookSecretCommand,
  TestWebhookCommand,
  UpdateWebhookCommand,
} from './webhook.commands';

type LiveWebhook = Extract<WebhookState, { status: 'live' }>;

/** Runs a command on a webhook of the caller's workspace; any other webhook is "not found". */
function onOwnWebhook(
  repository: EventSourcedRepository,
  context: CommandContext,
  webhookId: string,
  command: WebhookCommand | ((state: LiveWebhook) => WebhookCommand),
) {
  requireWorkspace(context);
  return repository.execute(
    webhookDecider,
    webhookStream(webhookId),
    (state: WebhookState) => {
      if (state.status !== 'live' || !ownedBy(state.workspaceId, context)) throw notFound(WEBHOOK_NOT_FOUND);
      return typeof command === 'function' ? command(state) : command;
    },
    context,
  );
}

/** The current state of a webhook of the caller's workspace, for the operations that only read it. */
async function loadOwnWebhook(
  repository: EventSourcedRepository,
  context: CommandContext,
  webhookId: string,
): Promise<LiveWebhook> {
  requireWorkspace(context);
  const { state } = await repository.load<WebhookState>(webhookDecider, webhookStream(webhookId));
  if (state.status !== 'live' || !ownedBy(state.workspaceId, context)) throw notFound(WEBHOOK_NOT_FOUND);
  return state;
}

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

@CommandHandler(UpdateWebhookCommand)
export class UpdateWebhookHandler implements ICommandHandler<UpdateWebhookCommand, { revision: number }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly guard: WebhookTargetGuard,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
  ) {}

  /**
   * `status: active` resets the failure count, which lives in the delivery store: the reset is
   * recorded on the stream as the next reset generation, then applied to the telemetry at once
   * (so the answer's read shows 0). Should this process die in between, the fan-out applies it
   * when it passes the event, and a worker that loaded the new state applies it with its next
   * settle; each generation is applied once, so none of them wipes failures counted after it.
   */
  async execute({ context, webhookId, changes }: UpdateWebhookCommand) {
    // Existence first, so another workspace's webhook is "not found" before its URL is judged.
    const current = await loadOwnWebhook(this.repository, context, webhookId);
    if (changes.url !== undefined && changes.url !== current.fields.url) {
      await this.guard.assertAllowed(parseWebhookUrl(changes.url, WEBHOOK_MESSAGES.urlUpdate));
    }
    const failureCount =
      changes.status === 'active'
        ? ((await this.queue.loadTelemetry([webhookId]))[0]?.failureCount ?? current.fields.failure_count)
        : undefined;
    const outcome = await onOwnWebhook(this.repository, context, webhookId, {
      type: 'UpdateWebhook',
      changes,
      now: this.clock.now(),
      failureCount,
    });
    const after = outcome.state as LiveWebhook;
    if (after.resetGeneration > current.resetGeneration)
      await this.queue.resetFailures(webhookId, after.resetGeneration);
    return { revision: outcome.revision };
  }
}

@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, webhookId }: DeleteWebhookCommand) {
    await onOwnWebhook(this.repository, context, webhookId, { type: 'DeleteWebhook', now: this.clock.now() });
  }
}

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

export const TEST_EVENT_TYPE = 'webhook.test';

@CommandHandler(TestWebhookCommand)
export class TestWebhookHandler implements ICommandHandler<TestWebhookCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly sender: WebhookSender,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Works on a paused subscription too: it is how a receiver is checked before re-activation. */
  async execute({ context, webhookId }: TestWebhookCommand) {
    const webhook = await loadOwnWebhook(this.repository, context, webhookId);
    const id = randomMessageId();
    const body = JSON.stringify({
      type: TEST_EVENT_TYPE,
      timestamp: new Date(this.clock.now()).toISOString(),
      data: { webhook_id: webhookId, message: 'This is a test delivery.' },
    });
    const outcome = await this.sender.attempt(
      { webhookId, url: webhook.fields.url, secrets: webhook.secrets },
      { id, body },
    );
    const attempt = {
      deliveryId: id,
      webhookId,
      workspaceId: webhook.workspaceId,
      eventType: TEST_EVENT_TYPE,
      attempt: 1,
      attemptedAt: outcome.attemptedAt,
      durationMs: outcome.durationMs,
      succeeded: outcome.succeeded,
      responseStatus: outcome.responseStatus,
      responseBody: outcome.responseBody,
      error: outcome.error,
      nextAttemptAt: null,
    };
    // The attempt log and last_triggered_at, in one write; nothing on the webhook's stream (a
    // test never changes failure_count nor pauses, so there is no change of state to record).
    await this.queue.recordAttempt(attempt);
    return { ...attempt, seq: 0 };
  }
}

export const WEBHOOK_PAUSED_CANNOT_RECOVER = 'Webhook is paused; set its status to active before recovering deliveries';

@CommandHandler(RecoverWebhookDeliveriesCommand)
export class RecoverWebhookDeliveriesHandler implements ICommandHandler<
  RecoverWebhookDeliveriesCommand,
  { count: number }
> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(WEBHOOK_QUEUE) private readonly queue: WebhookQueue,
    @Inject(WEBHOOK_DISPATCHER) private readonly dispatcher: Pick<WebhookDispatcher, 'wake'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, webhookId, since, until }: RecoverWebhookDeliveriesCommand) {
    const webhook = await loadOwnWebhook(this.repository, context, webhookId);
    // A paused subscription would drop them again at once.
    if (webhook.fields.status !== 'active') throw conflict(WEBHOOK_PAUSED_CANNOT_RECOVER);
    const now = this.clock.now();
    const count = await this.queue.requeueFailed(webhookId, { since, until: until ?? now + 1, now });
    if (count > 0) this.dispatcher.wake();
    return { count };
  }
}
