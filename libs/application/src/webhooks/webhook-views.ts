import { WebhookView } from '@app/domain';
import { StoredAttempt, WebhookTelemetry } from '../ports/webhook-queue.port';

/**
 * `failure_count` and `last_triggered_at` come from the delivery store's telemetry, merged at
 * query time: one read for a whole page. A subscription without telemetry yet (no attempt since
 * it was created, or only attempts recorded on its stream by an older version) keeps the read
 * model's values, which the projection folded from its events.
 */
export function withTelemetry(views: readonly WebhookView[], telemetry: readonly WebhookTelemetry[]): WebhookView[] {
  const byId = new Map(telemetry.map((t) => [t.webhookId, t]));
  return views.map((view) => {
    const t = byId.get(view.id);
    if (!t) return view;
    return { ...view, failure_count: t.failureCount, last_triggered_at: t.lastTriggeredAt ?? view.last_triggered_at };
  });
}

/** One entry of the attempt log, as GET /webhooks/{id}/deliveries shows it. */
export interface DeliveryAttemptView {
  delivery_id: string;
  event_type: string;
  attempt: number;
  attempted_at: number;
  succeeded: boolean;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number;
  error: string | null;
  next_retry_at: number | null;
}

/** Shared by the attempt log and the answer of POST /webhooks/{id}/test. */
export function attemptView(attempt: StoredAttempt): DeliveryAttemptView {
  return {
    delivery_id: attempt.deliveryId,
    event_type: attempt.eventType,
    attempt: attempt.attempt,
    attempted_at: attempt.attemptedAt,
    succeeded: attempt.succeeded,
    response_status: attempt.responseStatus,
    response_body: attempt.responseBody,
    duration_ms: attempt.durationMs,
    error: attempt.error,
    next_retry_at: attempt.nextAttemptAt,
  };
}
