import { Query } from '@nestjs/cqrs';
import { AttemptCount } from '../../ports/webhook-queue.port';

/**
 * A subscription's delivery attempts per period (a day or an hour) over the last `periods`
 * periods, succeeded and failed, oldest first, every period present (0 where none): a chart's bars.
 */
export class CountWebhookAttemptsQuery extends Query<AttemptCount[]> {
  constructor(
    readonly workspaceId: string,
    readonly webhookId: string,
    readonly bucketMs: number,
    readonly periods: number,
  ) {
    super();
  }
}
