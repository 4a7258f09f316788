import { DeliveryAttemptOutcome, webhookDecider, webhookStream } from '@app/domain';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { dispatcherContext } from './dispatcher-context';
import { DispatchLogger } from './webhook-fanout';

export interface RecordedOutcome extends DeliveryAttemptOutcome {
  deliveryId: string;
}

interface PerWebhook {
  workspaceId: string;
  /** Outcomes not yet written, in the order their attempts were settled. */
  waiting: RecordedOutcome[];
  timer: NodeJS.Timeout | null;
  writing: Promise<void> | null;
  lastWriteAt: number;
}

/**
 * Records the dispatcher's attempt outcomes on the webhooks' streams (failure_count, the
 * automatic pause, last_triggered_at), coalesced: one `RecordDeliveryAttempts` command per
 * subscription at a time, written as one `webhook.deliveries_attempted` event (and the pause, when
 * the attempts cross the rule).
 *
 * When an outcome is written:
 * - while a write for the subscription is in flight, outcomes wait and form the next write;
 * - a failed attempt is written at once (after the write in flight), so a pause is never
 *   postponed: the next attempt of a failing subscription sees it as soon as it would have;
 * - successful attempts are written at once when the subscription has been quiet for `lingerMs`,
 *   otherwise at most `lingerMs` after its previous write. Under load this is one event per
 *   subscription per `lingerMs` instead of one per attempt; a lone attempt is not delayed.
 *
 * The queue is settled before an outcome gets here (the attempt log has it); as before, a crash
 * between the two loses the outcome's effect on the counters of the subscription, never a
 * delivery or its log entry.
 */
export class AttemptRecorder {
  private readonly webhooks = new Map<string, PerWebhook>();

  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly pauseAfterFailures: number,
    private readonly lingerMs: number,
    private readonly logger: DispatchLogger,
  ) {}

  add(webhookId: string, workspaceId: string, outcome: RecordedOutcome): void {
    let entry = this.webhooks.get(webhookId);
    if (!entry) {
      entry = { workspaceId, waiting: [], timer: null, writing: null, lastWriteAt: 0 };
      this.webhooks.set(webhookId, entry);
    }
    entry.waiting.push(outcome);
    this.schedule(webhookId, entry, !outcome.succeeded);
  }

  /** Writes whatever waits, now, and resolves once every write has ended (shutdown). */
  async flush(): Promise<void> {
    for (;;) {
      const writes: Promise<void>[] = [];
      for (const [webhookId, entry] of this.webhooks) {
        if (entry.writing) writes.push(entry.writing);
        else if (entry.waiting.length > 0) writes.push(this.write(webhookId, entry));
      }
      if (writes.length === 0) return;
      await Promise.allSettled(writes);
    }
  }

  private schedule(webhookId: string, entry: PerWebhook, urgent: boolean) {
    if (entry.writing) return; // the write in flight picks them up when it ends
    const wait = urgent ? 0 : Math.max(0, entry.lastWriteAt + this.lingerMs - Date.now());
    if (entry.timer) {
      if (wait > 0) return; // a timer already ends the linger
      clearTimeout(entry.timer);
    }
    // Even "at once" is the next turn of the event loop: attempts settled together go together.
    this.setTimer(webhookId, entry, wait);
  }

  /** The timer writes what waits; with nothing waiting, the entry of a quiet subscription goes. */
  private setTimer(webhookId: string, entry: PerWebhook, ms: number) {
    entry.timer = setTimeout(() => {
      entry.timer = null;
      if (entry.waiting.length > 0) void this.write(webhookId, entry);
      else if (!entry.writing) this.webhooks.delete(webhookId);
    }, ms);
    entry.timer.unref?.();
  }

  private write(webhookId: string, entry: PerWebhook): Promise<void> {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    const outcomes = entry.waiting;
    entry.waiting = [];
    entry.lastWriteAt = Date.now();
    const correlation = outcomes.length === 1 ? outcomes[0].deliveryId : `${outcomes[0].deliveryId}+${outcomes.length - 1}`;
    const written = this.repository
      .execute(
        webhookDecider,
        webhookStream(webhookId),
        {
          type: 'RecordDeliveryAttempts',
          attempts: outcomes.map(({ succeeded, gone, responseStatus, attemptedAt }) => ({ succeeded, gone, responseStatus, attemptedAt })),
          pauseAfterFailures: this.pauseAfterFailures,
        },
        dispatcherContext(entry.workspaceId, correlation),
        { waitForReadModels: false },
      )
      .then(
        () => undefined,
        (error) => this.logger.error(`Webhook ${webhookId}: ${outcomes.length} attempt(s) could not be recorded on the webhook`, error),
      )
      .finally(() => {
        entry.writing = null;
        if (entry.waiting.length > 0) this.schedule(webhookId, entry, entry.waiting.some((o) => !o.succeeded));
        else this.setTimer(webhookId, entry, this.lingerMs);
      });
    entry.writing = written;
    return written;
  }
}
