import { WebhookChanges, WebhookEventType, WebhookStatus } from '@app/domain';
import { StoredAttempt } from '../../ports/webhook-queue.port';
import { Command, CommandContext } from '../../shared/command-context';

export interface CreateWebhookInput {
  name: string;
  url: string;
  event_types: WebhookEventType[];
}

/** The create response of docs/api.md, Webhooks (without `message`): the only time the secret is shown. */
export interface CreatedWebhook {
  id: string;
  name: string;
  url: string;
  event_types: WebhookEventType[];
  status: WebhookStatus;
  secret: string;
  created: number;
}

export class CreateWebhookCommand extends Command<CreatedWebhook> {
  constructor(
    context: CommandContext,
    readonly input: CreateWebhookInput,
  ) {
    super(context);
  }
}

export class UpdateWebhookCommand extends Command<{ revision: number }> {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
    readonly changes: Omit<WebhookChanges, 'failure_count'>,
  ) {
    super(context);
  }
}

export class DeleteWebhookCommand extends Command {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
  ) {
    super(context);
  }
}

export interface RotatedSecret {
  id: string;
  secret: string;
  /** Until then the previous secret signs too (a second `v1,` signature). */
  previous_secret_expires_at: number;
}

export class RotateWebhookSecretCommand extends Command<RotatedSecret> {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
  ) {
    super(context);
  }
}

/** Sends one signed `webhook.test` delivery now and answers with the attempt. */
export class TestWebhookCommand extends Command<StoredAttempt> {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
  ) {
    super(context);
  }
}

/** Re-queues the failed deliveries created in [since, until). */
export class RecoverWebhookDeliveriesCommand extends Command<{ count: number }> {
  constructor(
    context: CommandContext,
    readonly webhookId: string,
    readonly since: number,
    readonly until: number | undefined,
  ) {
    super(context);
  }
}
