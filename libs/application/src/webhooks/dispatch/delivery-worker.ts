import { pauseRuleCrossing, webhookDecider, WebhookState, webhookStream } from '@app/domain';
import { Clock } from '../../ports/clock.port';
import {
  ClaimedDelivery,
  DeliveryAttempt,
  Settlement,
  SettleRequest,
  TelemetryChange,
  WebhookQueue,
} from '../../ports/webhook-queue.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { WebhookSettings } from '../webhook-settings';
import { dispatcherContext } from './dispatcher-context';
import { nextRetryDelay } from './retry-policy';
import { AttemptOutcome, WebhookSender } from './webhook-sender';
import { DispatchLogger } from './webhook-fanout';

export { dispatcherContext } from './dispatcher-context';

export interface WorkerOptions {
  /** How long a claim lasts; longer than the request timeout, so a live attempt never outlives it. */
  leaseMs: number;
  /** Longest sleep between two looks at the queue (deliveries fanned out by other processes). */
  pollIntervalMs: number;
  /**
   * True when a claim's owner is known to be dead (a crashed process of this host): its claims are
   * released at once rather than waited out (a lease outlives the request timeout, 45 s by default).
   */
  isDeadOwner?: (owner: string) => boolean;
}

/** How often the owners of running claims are checked for dead processes (and once at start). */
const DEAD_CLAIMS_EVERY_MS = 5_000;

interface PendingSettle {
  request: SettleRequest;
  /** The receiver answered 410 Gone (the pause rule needs it; the attempt log keeps the status). */
  gone: boolean;
  resolve(settled: boolean): void;
  reject(error: unknown): void;
}

/**
 * Claims due deliveries and attempts them, up to `settings.concurrency` at once. Any number of
 * processes can run workers on one queue: a claim leases a delivery to one worker, and settling
 * with a stale claim writes nothing, so no two workers make the same attempt.
 *
 * For every attempt the queue is settled (attempt log, next retry or final state) together with
 * the subscription's telemetry (failure_count, last_triggered_at, totals): one transaction, so a
 * crash cannot separate an attempt from its effect on the counters. The webhook's stream gets an
 * event only when the pause rule is crossed (`webhook.auto_paused`, through the aggregate, which
 * ignores a second pause): it records changes of state, not attempts.
 *
 * Batching, so that the cost per delivery is the HTTP request and little else:
 * - claims come in batches: the queue is read when something may be due (a fan-out, a recover, a
 *   retry's due time, the poll) and, while it has more than we take, again whenever a quarter of
 *   the slots are free, not after every attempt;
 * - the subscription's state (URL, secrets, paused or deleted, reset generation) is loaded once per
 *   claimed batch, from the stream: the read model lags (a pause or a new URL must stop the next
 *   attempt), and the repository keeps the folded state cached and reads only newer events, which
 *   with the telemetry out of the stream are rare — a load is one short read, not a fold;
 * - the settlements of attempts that end in the same turn of the event loop are written together
 *   (`settleMany`, one transaction, telemetry included).
 */
export class DeliveryWorker {
  private readonly inFlight = new Map<string, AbortController>();
  /** Pauses being recorded, per subscription: one at a time from this process. */
  private readonly pausing = new Map<string, Promise<void>>();
  private readonly refillAt: number;
  private stopped = true;
  private pumping = false;
  private again = false;
  /** The last claim got all it asked for: more is probably due, and finishing attempts fetch it. */
  private backlog = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private settling: PendingSettle[] = [];
  private settleFlush: Promise<void> | null = null;
  private settleScheduled = false;
  private deadClaimsAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly queue: WebhookQueue,
    private readonly repository: EventSourcedRepository,
    private readonly sender: WebhookSender,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly owner: string,
    private readonly options: WorkerOptions,
    private readonly logger: DispatchLogger,
  ) {
    this.refillAt = Math.max(1, Math.floor(settings.concurrency / 4));
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /**
   * Stops claiming, aborts attempts in flight (their claims are given back), waits for them and
   * for the pauses being recorded.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    for (const controller of this.inFlight.values()) controller.abort();
    while (this.inFlight.size > 0 || this.pumping || this.settleFlush || this.settling.length > 0) {
      await new Promise((r) => setTimeout(r, 5));
    }
    while (this.pausing.size > 0) await Promise.allSettled([...this.pausing.values()]);
  }

  /** Something may be due now (new deliveries, a recover). */
  wake(): void {
    if (this.stopped) return;
    // Saturated with more waiting: the next refill fetches it; a claim of one or two slots now
    // would cost a queue write for nothing.
    if (this.backlog && this.settings.concurrency - this.inFlight.size < this.refillAt) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    this.clearTimer();
    try {
      if (this.options.isDeadOwner && this.clock.now() >= this.deadClaimsAt) await this.releaseDeadClaims();
      do {
        this.again = false;
        const free = this.settings.concurrency - this.inFlight.size;
        if (free <= 0) {
          this.backlog = true; // a finishing attempt fetches more
          return;
        }
        const claimed = await this.queue.claimDue(this.owner, this.clock.now(), free, this.options.leaseMs);
        this.backlog = claimed.length === free;
        if (claimed.length > 0) this.dispatch(claimed);
        if (this.backlog) this.again = true;
      } while (this.again && !this.stopped);
      await this.sleepUntilDue();
    } catch (error) {
      this.logger.error('Webhook delivery worker failed to read the queue; retrying', error);
      this.scheduleAt(this.clock.now() + this.options.pollIntervalMs);
    } finally {
      this.pumping = false;
      // A wake-up that arrived while this pass was ending is not lost.
      if (this.again && !this.stopped) this.wake();
    }
  }

  /**
   * Gives back the claims of workers that died holding them (kill -9 in the middle of attempts):
   * due now, so a restarted process retries them at once. An attempt the dead worker made but did
   * not record is made again: delivery is at least once, as after a lease that runs out.
   */
  private async releaseDeadClaims(): Promise<void> {
    const now = this.clock.now();
    this.deadClaimsAt = now + DEAD_CLAIMS_EVERY_MS;
    try {
      for (const owner of await this.queue.claimOwners(now)) {
        if (owner === this.owner || !this.options.isDeadOwner!(owner)) continue;
        const released = await this.queue.releaseClaimsOf(owner, now);
        if (released > 0) {
          this.logger.warn(`Webhook deliveries: ${released} claim(s) of a dead worker (${owner}) released; due now`);
        }
      }
    } catch (error) {
      this.logger.warn('Webhook deliveries: the claims of dead workers could not be checked; retrying later', error);
    }
  }

  private async sleepUntilDue(): Promise<void> {
    if (this.stopped) return;
    const now = this.clock.now();
    const due = await this.queue.nextDueAt();
    this.scheduleAt(
      due === null
        ? now + this.options.pollIntervalMs
        : Math.min(Math.max(now, due), now + this.options.pollIntervalMs),
    );
  }

  /** Looks at the queue again at `at`, unless an earlier look is already planned. */
  private scheduleAt(at: number) {
    if (this.stopped || at >= this.timerAt) return;
    this.clearTimer();
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.wake();
      },
      Math.max(0, at - this.clock.now()),
    );
  }

  private clearTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  /** Takes the slots at once, loads each subscription's state once, then runs the attempts. */
  private dispatch(claimed: ClaimedDelivery[]): void {
    const byWebhook = new Map<string, ClaimedDelivery[]>();
    for (const delivery of claimed) {
      this.inFlight.set(delivery.id, new AbortController());
      const group = byWebhook.get(delivery.webhookId);
      if (group) group.push(delivery);
      else byWebhook.set(delivery.webhookId, [delivery]);
    }
    for (const [webhookId, deliveries] of byWebhook) {
      this.repository.load<WebhookState>(webhookDecider, webhookStream(webhookId)).then(
        ({ state }) => {
          for (const delivery of deliveries) this.run(delivery, state);
        },
        (error) => {
          // Their claims run out and they become due again.
          this.logger.error(
            `Webhook ${webhookId}: its state could not be loaded; ${deliveries.length} delivery(ies) wait for their claims to end`,
            error,
          );
          for (const delivery of deliveries) this.finished(delivery.id);
        },
      );
    }
  }

  private run(delivery: ClaimedDelivery, state: WebhookState): void {
    const signal = this.inFlight.get(delivery.id)!.signal;
    void this.process(delivery, state, signal)
      .catch((error) => this.logger.error(`Webhook delivery ${delivery.id} could not be processed`, error))
      .finally(() => this.finished(delivery.id));
  }

  private finished(deliveryId: string) {
    this.inFlight.delete(deliveryId);
    if (this.backlog) this.wake(); // which claims once a quarter of the slots are free
  }

  private async process(delivery: ClaimedDelivery, state: WebhookState, signal: AbortSignal): Promise<void> {
    if (state.status !== 'live') {
      await this.settle(
        { claim: delivery, attempt: null, settlement: { status: 'failed', reason: 'Webhook deleted' } },
        false,
      );
      return;
    }
    if (state.fields.status === 'paused') {
      // Paused subscriptions receive nothing; POST /webhooks/{id}/recover re-queues these.
      await this.settle(
        { claim: delivery, attempt: null, settlement: { status: 'failed', reason: 'Webhook paused' } },
        false,
      );
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
    if (
      !(await this.settle(
        { claim: delivery, attempt, settlement, resetGeneration: state.resetGeneration },
        outcome.gone,
      ))
    ) {
      this.logger.warn(
        `Webhook delivery ${delivery.id}: claim expired during the attempt; its outcome was not recorded`,
      );
      return;
    }
    if (settlement.status === 'retry') this.scheduleAt(settlement.nextAttemptAt);
  }

  /**
   * Settles through a shared batch: requests made in the same turn of the event loop (and while a
   * batch is being written) are written together.
   */
  private settle(request: SettleRequest, gone: boolean): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.settling.push({ request, gone, resolve, reject });
      this.scheduleSettle();
    });
  }

  private scheduleSettle() {
    if (this.settleScheduled || this.settleFlush || this.settling.length === 0) return;
    this.settleScheduled = true;
    setImmediate(() => {
      this.settleScheduled = false;
      const batch = this.settling;
      this.settling = [];
      this.settleFlush = this.queue
        .settleMany(batch.map((pending) => pending.request))
        .then(
          ({ settled, telemetry }) => {
            batch.forEach((pending, i) => pending.resolve(settled[i] ?? false));
            this.applyPauseRule(
              batch.filter((_, i) => settled[i]),
              telemetry,
            );
          },
          (error) => batch.forEach((pending) => pending.reject(error)),
        )
        .finally(() => {
          this.settleFlush = null;
          this.scheduleSettle();
        });
    });
  }

  /**
   * Decides the pause from the telemetry the settle returned: the batch's attempts of each
   * subscription, in the order they were settled, folded from the count they started from. A
   * crossing is recorded at once (before the next attempt of that subscription is claimed, as a
   * rule) as one `webhook.auto_paused` through the aggregate.
   */
  private applyPauseRule(settled: readonly PendingSettle[], telemetry: readonly TelemetryChange[]) {
    for (const change of telemetry) {
      const own = settled.filter((pending) => pending.request.attempt?.webhookId === change.webhookId);
      const crossing = pauseRuleCrossing(
        change.failureCountBefore,
        own.map(({ request, gone }) => ({
          succeeded: request.attempt!.succeeded,
          gone,
          attemptedAt: request.attempt!.attemptedAt,
        })),
        this.settings.pauseAfterFailures,
      );
      if (!crossing) continue;
      const at = own.find((pending) => pending.request.attempt!.attemptedAt === crossing.attemptedAt)!.request.attempt!;
      this.pause(change.webhookId, at.workspaceId, at.deliveryId, crossing);
    }
  }

  private pause(
    webhookId: string,
    workspaceId: string,
    deliveryId: string,
    crossing: NonNullable<ReturnType<typeof pauseRuleCrossing>>,
  ) {
    // One at a time per subscription from this process; the aggregate ignores the pause of a
    // paused subscription, so another process pausing it at the same moment records nothing twice.
    if (this.pausing.has(webhookId)) return;
    const recorded = this.repository
      .execute(
        webhookDecider,
        webhookStream(webhookId),
        {
          type: 'AutoPauseWebhook',
          reason: crossing.reason,
          failureCount: crossing.failureCount,
          now: crossing.attemptedAt,
        },
        dispatcherContext(workspaceId, deliveryId),
        { waitForReadModels: false },
      )
      .then(
        () => undefined,
        (error) =>
          this.logger.error(
            `Webhook ${webhookId}: its automatic pause could not be recorded; the next failed attempt records it`,
            error,
          ),
      )
      .finally(() => this.pausing.delete(webhookId));
    this.pausing.set(webhookId, recorded);
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
