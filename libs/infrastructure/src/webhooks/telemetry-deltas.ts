import type { DeliveryAttempt } from '@app/application/ports';

/**
 * The settled attempts of one subscription in a batch, summed up for the telemetry update: one
 * statement per subscription per batch, whatever the number of attempts. Shared by the adapters
 * so the fold is the same everywhere; the order is the order of the requests (the order the
 * attempts ended).
 */
export interface TelemetryDelta {
  webhookId: string;
  resetGeneration: number;
  attempts: number;
  failures: number;
  /** Whether any attempt succeeded; then the count is `trailingFailures` (the failures after the last success). */
  anySuccess: boolean;
  trailingFailures: number;
  lastAttemptedAt: number;
  lastResponseStatus: number | null;
}

/** Folds a batch's settled attempts into one `TelemetryDelta` per subscription. */
export function telemetryDeltas(
  settled: readonly { attempt: DeliveryAttempt; resetGeneration?: number }[],
): TelemetryDelta[] {
  const byWebhook = new Map<string, TelemetryDelta>();
  for (const { attempt, resetGeneration } of settled) {
    let delta = byWebhook.get(attempt.webhookId);
    if (!delta) {
      delta = {
        webhookId: attempt.webhookId,
        resetGeneration: 0,
        attempts: 0,
        failures: 0,
        anySuccess: false,
        trailingFailures: 0,
        lastAttemptedAt: attempt.attemptedAt,
        lastResponseStatus: attempt.responseStatus,
      };
      byWebhook.set(attempt.webhookId, delta);
    }
    delta.resetGeneration = Math.max(delta.resetGeneration, resetGeneration ?? 0);
    delta.attempts++;
    if (attempt.succeeded) {
      delta.anySuccess = true;
      delta.trailingFailures = 0;
    } else {
      delta.failures++;
      delta.trailingFailures++;
    }
    if (attempt.attemptedAt >= delta.lastAttemptedAt) {
      delta.lastAttemptedAt = attempt.attemptedAt;
      delta.lastResponseStatus = attempt.responseStatus;
    }
  }
  return [...byWebhook.values()];
}
