import { Query } from '@nestjs/cqrs';
import { WebhookView } from '@app/domain';

export interface WebhookList {
  webhooks: WebhookView[];
  count: number;
  cursor: string | null;
}

export class ListWebhooksQuery extends Query<WebhookList> {
  constructor(
    readonly workspaceId: string,
    readonly cursor?: string,
  ) {
    super();
  }
}
