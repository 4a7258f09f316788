import { Clock } from '../../ports/clock.port';
import { EventStore } from '../../ports/event-store.port';
import { ProcessHost } from '../../ports/process-host.port';
import { WebhookQueue } from '../../ports/webhook-queue.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { ResourceViews } from '../resource-views';
import { WebhookSettings } from '../webhook-settings';
import { DeliveryWorker } from './delivery-worker';
import { DispatchLogger, WebhookFanout } from './webhook-fanout';
import { WebhookSender } from './webhook-sender';

export const WEBHOOK_DISPATCHER = Symbol('WebhookDispatcher');

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Margin between the request timeout and the claim: time to load, sign and settle. */
const LEASE_MARGIN_MS = 30_000;

/**
 * The webhook dispatcher of one process: the fan-out (runs while this process holds the fan-out
 * lease) and a delivery worker (always runs). In the embedded deployment the one process does
 * both; in a scaled deployment every process runs a worker and one of them, in turn, the fan-out.
 */
export class WebhookDispatcher {
  /** This process's id on the leases it holds; the host tells whether another holder is gone. */
  readonly owner: string;
  private readonly fanout: WebhookFanout;
  private readonly worker: DeliveryWorker;
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(
    events: EventStore,
    private readonly queue: WebhookQueue,
    repository: EventSourcedRepository,
    sender: WebhookSender,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly logger: DispatchLogger,
    host: ProcessHost,
    options: { fanoutLeaseMs?: number; pollIntervalMs?: number } = {},
  ) {
    this.owner = host.newOwnerId();
    this.worker = new DeliveryWorker(
      queue,
      repository,
      sender,
      settings,
      clock,
      this.owner,
      {
        leaseMs: settings.requestTimeoutMs + LEASE_MARGIN_MS,
        pollIntervalMs: options.pollIntervalMs ?? 1_000,
        isDeadOwner: (owner) => host.isDeadOwner(owner),
      },
      logger,
    );
    this.fanout = new WebhookFanout(
      events,
      queue,
      new ResourceViews(events),
      settings,
      clock,
      this.owner,
      { leaseMs: options.fanoutLeaseMs ?? 15_000, isDeadOwner: (owner) => host.isDeadOwner(owner) },
      () => this.worker.wake(),
      logger,
    );
  }

  async start(): Promise<void> {
    await this.queue.init();
    await this.fanout.start();
    this.worker.start();
    this.pruneTimer = setInterval(() => {
      this.queue
        .prune(this.clock.now() - this.settings.retentionMs)
        .catch((error) => this.logger.warn('Webhook queue pruning failed', error));
    }, PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  /** Something was re-queued (recover): look at the queue now rather than at the next poll. */
  wake(): void {
    this.worker.wake();
  }

  async stop(): Promise<void> {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.fanout.stop();
    await this.worker.stop();
  }
}
