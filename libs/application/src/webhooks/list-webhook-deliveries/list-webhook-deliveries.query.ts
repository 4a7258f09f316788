import { Query } from '@nestjs/cqrs';
import { DeliveryAttemptView } from '../webhook-views';

export interface DeliveryAttemptList {
  deliveries: DeliveryAttemptView[];
  count: number;
  cursor: string | null;
}

export class ListWebhookDeliveriesQuery extends Query<DeliveryAttemptList> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly cursor?: string,
  ) {
    super();
  }
}
