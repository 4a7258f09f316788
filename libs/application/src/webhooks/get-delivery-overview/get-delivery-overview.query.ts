import { Query } from '@nestjs/cqrs';
import { AttemptCount, DeliveryBacklog } from '../../ports/webhook-queue.port';
import { WebhookPause } from '../get-webhook-pause/get-webhook-pause.query';

/** A paused or failing subscription as the operators see it across workspaces. */
export interface TroubledWebhook {
  id: string;
  workspace_id: string;
  /** Null when the subscription's document is gone (deleted since the queue last heard of it). */
  url: string | null;
  status: 'active' | 'paused';
  failure_count: number;
  last_attempt_at: number | null;
  last_response_status: number | null;
  /** Why and when a paused subscription was paused, from its stream; null for an active one. */
  pause_reason: WebhookPause['reason'] | null;
  paused_at: number | null;
}

export interface DeliveryOverview {
  backlog: DeliveryBacklog;
  /** Paused and failing subscriptions, most failures first, at most `limit`. */
  subscriptions: TroubledWebhook[];
  /** Every subscription's attempts per period, oldest first, one entry per period of the window. */
  attempts: AttemptCount[];
  bucket_ms: number;
}

/**
 * The operators' view of webhook deliveries across every workspace: the backlog, the paused and
 * failing subscriptions, and the attempts of the last `periods` periods of `bucketMs`.
 */
export class GetDeliveryOverviewQuery extends Query<DeliveryOverview> {
  constructor(
    readonly options: { bucketMs: number; periods: number; limit: number } = {
      bucketMs: 3_600_000,
      periods: 24,
      limit: 50,
    },
  ) {
    super();
  }
}
