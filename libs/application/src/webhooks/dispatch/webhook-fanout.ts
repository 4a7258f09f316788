import { WebhookEvent } from '@app/domain';
import { Clock } from '../../ports/clock.port';
import { EventStore, RecordedEvent, Subscription } from '../../ports/event-store.port';
import {
  FanoutBatch,
  FanoutLeaseLostError,
  NewDelivery,
  WebhookQueue,
  WebhookRoute,
} from '../../ports/webhook-queue.port';
import { ResourceViews } from '../resource-views';
import { deliveryIdOf } from '../webhook-signature';
import { WebhookSettings } from '../webhook-settings';
import { jittered } from './retry-policy';

export interface DispatchLogger {
  error(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
}

export interface FanoutOptions {
  /** How long the fan-out lease lasts; it is renewed at a third of that. */
  leaseMs: number;
  /**
   * True when a lease holder is known to be dead (a crashed process of this host), so its lease
   * can be taken at once instead of after it runs out.
   */
  isDeadOwner?: (owner: string) => boolean;
}

/**
 * Turns store events into deliveries. It follows the event store ($all) from the queue's own
 * checkpoint (not the projection engine's), in order, so for every event it knows the
 * subscriptions exactly as they were at that point of the history: their routes are folded from
 * the `webhook.*` events it passes on the way. Each delivered event becomes one delivery per
 * active subscription of its workspace that lists its type, with the payload built once, as of
 * the event, and stored with the delivery.
 *
 * Only the holder of the queue's fan-out lease runs it (one process at a time in a scaled
 * deployment); every batch that queues something is committed with the checkpoint (one that does
 * not, with a later one: see idleCheckpoint), and a lost lease stops it.
 */
export class WebhookFanout {
  private readonly routes = new Map<string, Map<string, WebhookRoute>>();
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private holding = false;
  private stopped = true;
  private ticking: Promise<void> = Promise.resolve();
  /**
   * The position of the last batch that changed nothing in the queue (no delivery, route or reset),
   * not committed yet: such a batch is recorded with the next one that does, at the next lease
   * renewal, or at stop, rather than costing a queue transaction of its own. Should the process die
   * first, those events are fanned out again from the committed checkpoint, with the routes
   * committed with it, which they did not change: again nothing.
   */
  private idleCheckpoint: number | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly queue: WebhookQueue,
    private readonly views: ResourceViews,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly owner: string,
    private readonly options: FanoutOptions,
    private readonly onDeliveries: () => void,
    private readonly logger: DispatchLogger,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.tick();
    this.timer = setInterval(
      () => {
        this.ticking = this.ticking.then(() => this.tick());
      },
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    await this.unsubscribe();
    await this.commitIdleCheckpoint();
    if (this.holding) await this.queue.releaseFanout(this.owner).catch(() => undefined);
    this.holding = false;
  }

  /** Takes or renews the lease; starts following the store when it is newly ours. */
  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      let lease = await this.queue.acquireFanout(this.owner, this.clock.now(), this.options.leaseMs);
      if (!lease && this.options.isDeadOwner) {
        const holder = await this.queue.fanoutHolder();
        if (holder && this.options.isDeadOwner(holder.owner)) {
          await this.queue.releaseFanout(holder.owner);
          lease = await this.queue.acquireFanout(this.owner, this.clock.now(), this.options.leaseMs);
        }
      }
      if (lease && !this.holding) {
        this.holding = true;
        await this.follow(lease.checkpoint);
      } else if (!lease && this.holding) {
        this.holding = false;
        this.idleCheckpoint = null;
        await this.unsubscribe();
      } else if (lease) {
        await this.commitIdleCheckpoint();
      }
    } catch (error) {
      this.logger.error('Webhook fan-out lease check failed', error);
    }
  }

  private async follow(checkpoint: number): Promise<void> {
    this.routes.clear();
    this.idleCheckpoint = null;
    for (const route of await this.queue.loadRoutes()) this.setRoute(route);
    this.subscription = this.events.subscribeToAll({
      after: checkpoint,
      onEvents: (batch) => this.handle(batch),
      onError: (error) => {
        this.logger.error('Webhook fan-out subscription failed; it restarts with the next lease check', error);
        this.subscription = null;
        this.holding = false;
      },
    });
  }

  private async unsubscribe(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }

  private async handle(batch: RecordedEvent[]): Promise<void> {
    const deliveries: NewDelivery[] = [];
    const upserts = new Map<string, WebhookRoute>();
    const removed = new Set<string>();
    const resets = new Map<string, number>();
    for (const event of batch) {
      if (event.type.startsWith('webhook.')) {
        const webhookEvent = event as unknown as WebhookEvent;
        this.applyRouteEvent(webhookEvent, upserts, removed);
        // A re-activation's reset reaches the telemetry with the checkpoint, whatever happened
        // to the process that recorded it (applied once per generation, see resetFailures).
        if (webhookEvent.type === 'webhook.updated' && webhookEvent.data.reset_generation !== undefined) {
          resets.set(
            webhookEvent.data.id,
            Math.max(resets.get(webhookEvent.data.id) ?? 0, webhookEvent.data.reset_generation),
          );
        }
        continue;
      }
      deliveries.push(...(await this.deliveriesFor(event)));
    }
    const checkpoint = batch[batch.length - 1].position;
    if (deliveries.length === 0 && upserts.size === 0 && removed.size === 0 && resets.size === 0) {
      this.idleCheckpoint = checkpoint;
      return;
    }
    this.idleCheckpoint = null;
    await this.commit({
      checkpoint,
      upsertRoutes: [...upserts.values()],
      removeRoutes: [...removed],
      resetFailures: [...resets]
        .filter(([webhookId]) => !removed.has(webhookId))
        .map(([webhookId, generation]) => ({ webhookId, generation })),
      deliveries,
    });
    if (deliveries.length > 0) this.onDeliveries();
  }

  /** Records the position of the batches that changed nothing, if any came since the last commit. */
  private async commitIdleCheckpoint(): Promise<void> {
    const checkpoint = this.idleCheckpoint;
    if (checkpoint === null || !this.holding) return;
    this.idleCheckpoint = null;
    try {
      await this.commit({ checkpoint, upsertRoutes: [], removeRoutes: [], deliveries: [] });
    } catch (error) {
      this.logger.warn(
        'Webhook fan-out checkpoint could not be recorded; the events after it are fanned out again',
        error,
      );
    }
  }

  private async commit(batch: FanoutBatch): Promise<void> {
    try {
      await this.queue.commitFanout(this.owner, batch);
    } catch (error) {
      if (error instanceof FanoutLeaseLostError) {
        // Another process took over; our in-memory routes may be ahead of what it will commit.
        this.holding = false;
        this.idleCheckpoint = null;
        this.routes.clear();
        void this.unsubscribe();
        return;
      }
      throw error;
    }
  }

  private async deliveriesFor(event: RecordedEvent): Promise<NewDelivery[]> {
    const webhookType = this.views.webhookTypeOf(event.type);
    const workspaceId = event.metadata.workspaceId;
    if (!webhookType || !workspaceId) return [];
    const routes = this.routes.get(workspaceId);
    if (!routes) return [];
    const targets = [...routes.values()].filter((route) => route.active && route.eventTypes.includes(webhookType));
    if (targets.length === 0) return [];
    const data = await this.views.dataAt(event);
    if (!data) return [];
    const payload = JSON.stringify({
      type: webhookType,
      timestamp: new Date(event.metadata.recordedAt).toISOString(),
      data,
    });
    const now = this.clock.now();
    return targets.map((route) => ({
      id: deliveryIdOf(event.id, route.webhookId),
      webhookId: route.webhookId,
      workspaceId,
      eventId: event.id,
      eventType: webhookType,
      payload,
      createdAt: now,
      nextAttemptAt: now + jittered(this.settings.retryDelaysMs[0] ?? 0, this.settings.jitterRatio),
    }));
  }

  private applyRouteEvent(event: WebhookEvent, upserts: Map<string, WebhookRoute>, removed: Set<string>) {
    const { id, workspace_id } = event.data;
    const current = this.routes.get(workspace_id)?.get(id);
    let next: WebhookRoute | null | undefined;
    switch (event.type) {
      case 'webhook.created':
        next = { webhookId: id, workspaceId: workspace_id, eventTypes: event.data.event_types, active: true };
        break;
      case 'webhook.updated': {
        const { event_types, status } = event.data.changes;
        if (current && (event_types !== undefined || status !== undefined)) {
          next = {
            ...current,
            eventTypes: event_types ?? current.eventTypes,
            active: status === undefined ? current.active : status === 'active',
          };
        }
        break;
      }
      case 'webhook.auto_paused':
        if (current) next = { ...current, active: false };
        break;
      case 'webhook.deleted':
        next = null;
        break;
    }
    if (next === undefined) return;
    if (next === null) {
      this.routes.get(workspace_id)?.delete(id);
      upserts.delete(id);
      removed.add(id);
    } else {
      this.setRoute(next);
      upserts.set(id, next);
      removed.delete(id);
    }
  }

  private setRoute(route: WebhookRoute) {
    let routes = this.routes.get(route.workspaceId);
    if (!routes) this.routes.set(route.workspaceId, (routes = new Map()));
    routes.set(route.webhookId, route);
  }
}
