import { OPERATOR, webhookDecider, WebhookState, webhookStream } from '@app/domain';
import { Clock } from '../../ports/clock.port';
import { ClaimedDelivery, DeliveryAttempt, Settlement, WebhookQueue } from '../../ports/webhook-queue.port';
import { CommandContext } from '../../shared/command-context';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { WebhookSettings } from '../webhook-settings';
import { nextRetryDelay } from './retry-policy';
import { AttemptOutcome, WebhookSender } from './webhook-sender';
import { DispatchLogger } from './webhook-fanout';

export interface WorkerOptions {
  /** How long a claim lasts; longer than the request timeout, so a live attempt never outlives it. */
  leaseMs: number;
  /** Longest sleep between two looks at the queue (deliveries fanned out by other processes). */
  pollIntervalMs: number;
}

/** Events caused by the dispatcher: no request behind them, the delivery id correlates them. */
export function dispatcherContext(workspaceId: string, deliveryId: string): CommandContext {
  return { actor: OPERATOR, workspaceId, requestId: `webhook-dispatch-${deliveryId}` };
}

/**
 * Claims due deliveries and attempts them, up to `settings.concurrency` at once. Any number of
 * processes can run workers on one queue: a claim leases a delivery to one worker, and settling
 * with a stale claim writes nothing, so no two workers make the same attempt.
 *
 * For every attempt the queue is settled first (attempt log, next retry or final state), then the
 * outcome is recorded on the webhook's stream (last_triggered_at, failure_count, automatic pause).
 */
export class DeliveryWorker {
  private readonly inFlight = new Map<string, AbortController>();
  /** Outcomes being recorded on webhook streams; they no longer hold a delivery slot. */
  private readonly recording = new Set<Promise<unknown>>();
  private stopped = true;
  private pumping = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly queue: WebhookQueue,
    private readonly repository: EventSourcedRepository,
    private readonly sender: WebhookSender,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly owner: string,
    private readonly options: WorkerOptions,
    private readonly logger: DispatchLogger,
  ) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Stops claiming, aborts attempts in flight (their claims are given back) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const controller of this.inFlight.values()) controller.abort();
    while (this.inFlight.size > 0 || this.pumping) await new Promise((r) => setTimeout(r, 5));
    await Promise.allSettled([...this.recording]);
  }

  /** Something may be due now (new deliveries, a recover). */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      do {
        this.again = false;
        const free = this.settings.concurrency - this.inFlight.size;
        if (free <= 0) return; // a finishing attempt wakes us
        const claimed = await this.queue.claimDue(this.owner, this.clock.now(), free, this.options.leaseMs);
        for (const delivery of claimed) this.run(delivery);
        if (claimed.length === free) this.again = true;
      } while (this.again && !this.stopped);
      await this.sleepUntilDue();
    } catch (error) {
      this.logger.error('Webhook delivery worker failed to read the queue; retrying', error);
      this.schedule(this.options.pollIntervalMs);
    } finally {
      this.pumping = false;
      // A wake-up that arrived while this pass was ending is not lost.
      if (this.again && !this.stopped) this.wake();
    }
  }

  private async sleepUntilDue(): Promise<void> {
    if (this.stopped) return;
    const due = await this.queue.nextDueAt();
    const wait = due === null ? this.options.pollIntervalMs : Math.min(Math.max(0, due - this.clock.now()), this.options.pollIntervalMs);
    this.schedule(wait);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), ms);
  }

  private run(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    this.inFlight.set(delivery.id, controller);
    void this.process(delivery, controller.signal)
      .catch((error) => this.logger.error(`Webhook delivery ${delivery.id} could not be processed`, error))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.wake();
      });
  }

  private async process(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const { state } = await this.repository.load<WebhookState>(webhookDecider, webhookStream(delivery.webhookId));
    if (state.status !== 'live') {
      await this.queue.settle(delivery, null, { status: 'failed', reason: 'Webhook deleted' });
      return;
    }
    if (state.fields.status === 'paused') {
      // Paused subscriptions receive nothing; POST /webhooks/{id}/recover re-queues these.
      await this.queue.settle(delivery, null, { status: 'failed', reason: 'Webhook paused' });
      return;
    }
    const outcome = await this.sender.attempt(
      { webhookId: delivery.webhookId, url: state.fields.url, secrets: state.secrets },
      { id: delivery.id, body: delivery.payload },
      signal,
    );
    if (outcome.aborted) {
      await this.queue.release(delivery);
      return;
    }
    const attemptNumber = delivery.attempts + 1;
    const settlement = this.settlementOf(delivery, attemptNumber, outcome);
    const attempt: DeliveryAttempt = {
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      workspaceId: delivery.workspaceId,
      eventType: delivery.eventType,
      attempt: attemptNumber,
      attemptedAt: outcome.attemptedAt,
      durationMs: outcome.durationMs,
      succeeded: outcome.succeeded,
      responseStatus: outcome.responseStatus,
      responseBody: outcome.responseBody,
      error: outcome.error,
      nextAttemptAt: settlement.status === 'retry' ? settlement.nextAttemptAt : null,
    };
    if (!(await this.queue.settle(delivery, attempt, settlement))) {
      this.logger.warn(`Webhook delivery ${delivery.id}: claim expired during the attempt; its outcome was not recorded`);
      return;
    }
    // The queue is settled: the slot is free for the next delivery while the outcome is recorded.
    const recorded = this.repository.execute(
      webhookDecider,
      webhookStream(delivery.webhookId),
      {
        type: 'RecordDeliveryAttempt',
        deliveryId: delivery.id,
        attempt: attemptNumber,
        succeeded: outcome.succeeded,
        gone: outcome.gone,
        responseStatus: outcome.responseStatus,
        test: false,
        attemptedAt: outcome.attemptedAt,
        pauseAfterFailures: this.settings.pauseAfterFailures,
      },
      dispatcherContext(delivery.workspaceId, delivery.id),
      { waitForReadModels: false },
    );
    this.recording.add(recorded);
    void recorded
      .catch((error) => this.logger.error(`Webhook delivery ${delivery.id}: the attempt could not be recorded on the webhook`, error))
      .finally(() => this.recording.delete(recorded));
  }

  private settlementOf(delivery: ClaimedDelivery, attemptNumber: number, outcome: AttemptOutcome): Settlement {
    if (outcome.succeeded) return { status: 'succeeded' };
    if (outcome.gone) return { status: 'failed', reason: 'The receiver answered 410 Gone' };
    const delay = nextRetryDelay(this.settings.retryDelaysMs, attemptNumber - delivery.roundStart, {
      retryAfterMs: outcome.retryAfterMs,
      jitterRatio: this.settings.jitterRatio,
    });
    if (delay === null) return { status: 'failed', reason: 'Retries exhausted' };
    return { status: 'retry', nextAttemptAt: this.clock.now() + delay };
  }
}
