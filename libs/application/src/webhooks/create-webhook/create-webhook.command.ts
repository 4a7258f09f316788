import { WebhookEventType, WebhookStatus } from '@app/domain';
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
