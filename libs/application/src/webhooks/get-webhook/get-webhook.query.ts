import { Query } from '@nestjs/cqrs';
import { WebhookView } from '@app/domain';

export class GetWebhookQuery extends Query<WebhookView> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
  ) {
    super();
  }
}
