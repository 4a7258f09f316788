import type { WebhookEventType, WebhookStatus } from '@app/domain';
import { OnUpdate } from '../webhook-field-rules';

/**
 * PATCH /webhooks/{id}: at least one field (checked by the controller); only supplied fields change.
 * The rules are create's (WEBHOOK_FIELDS, ../webhook-field-rules.ts).
 */
export class UpdateWebhookDto {
  @OnUpdate('name') name?: string = undefined;
  @OnUpdate('url') url?: string = undefined;
  @OnUpdate('event_types') event_types?: WebhookEventType[] = undefined;
  @OnUpdate('status') status?: WebhookStatus = undefined;
}
