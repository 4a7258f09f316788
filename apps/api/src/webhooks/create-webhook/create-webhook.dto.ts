import type { WebhookEventType } from '@app/domain';
import { OnCreate } from '../webhook-field-rules';

/**
 * POST /webhooks (docs/api.md, Webhooks). Each field's rules are declared once, in WEBHOOK_FIELDS
 * (../webhook-field-rules.ts); fields in the order the API reference lists their messages.
 */
export class CreateWebhookDto {
  @OnCreate('name') name: string = undefined as never;
  @OnCreate('url') url: string = undefined as never;
  @OnCreate('event_types') event_types: WebhookEventType[] = undefined as never;
}
