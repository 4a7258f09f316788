import { EventStore, RecordedEvent, START, Subscription } from '../ports/event-store.port';
import { CollectionSpec, ReadModelStore, WriteOp } from '../ports/read-model.port';
import { coalesce } from './coalesce';
import { eventFilter, Projector } from './projector';

export interface EngineLogger {
  error(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
}

interface Waiter {
  position: number;
  resolve(): void;
}

/**
 * Feeds the event store's $all into every projector through one subscription, from the lowest
 * checkpoint. Each batch of events becomes one read-model write together with the projectors'
 * new checkpoints; a projector skips events at or below its own checkpoint, so projectors that
 * are behind (a new one, or one being rebuilt) catch up without replaying the others.
 *
 * `waitFor(position)` is how a write request gives read-your-writes: it is answered once every
 * projection has applied the events it caused.
 */
export class ProjectionEngine {
  private subscription: Subscription | null = null;
  private applied = START;
  private checkpoints: Record<string, number> = {};
  private waiters: Waiter[] = [];
  private restartTimer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly appliedListeners = new Set<(events: RecordedEvent[]) => void>();
  /** Live application and maintenance steps (swaps) run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly wants: ((type: string) => boolean)[];
  /** Collections being filled from the start of history; their indexes are built at `head`. */
  private pendingIndexes: { head: number; collections: CollectionSpec[] } | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly read: ReadModelStore,
    private readonly projectors: Projector[],
    private readonly logger: EngineLogger,
  ) {
    this.wants = projectors.map(eventFilter);
  }

  async start(): Promise<void> {
    const stored = await this.read.getCheckpoints();
    const head = await this.events.headPosition();
    // A projection that has never run (fresh read models, or one added since) replays the whole
    // history before the service answers. Like a rebuild, it is bulk-loaded: its secondary
    // indexes are built in one pass once it has caught up, instead of row by row on the way.
    const fresh = head > START ? this.projectors.filter((p) => (stored[p.name] ?? START) === START) : [];
    await this.read.init(this.projectors.filter((p) => !fresh.includes(p)).flatMap((p) => p.collections));
    if (fresh.length > 0) {
      const collections = fresh.flatMap((p) => p.collections);
      await this.read.init(collections, { bulkLoad: true });
      this.pendingIndexes = { head, collections };
    }
    this.stopped = false;
    await this.subscribe();
  }

  private async subscribe(): Promise<void> {
    const stored = await this.read.getCheckpoints();
    this.checkpoints = Object.fromEntries(this.projectors.map((p) => [p.name, stored[p.name] ?? START]));
    const from = Math.min(...Object.values(this.checkpoints));
    this.applied = Math.max(this.applied, from);
    this.subscription = this.events.subscribeToAll({
      after: from,
      onEvents: (batch) => this.exclusive(() => this.handle(batch)),
      onError: (error) => {
        this.logger.error('Projection subscription failed; restarting in 1 s', error);
        this.subscription = null;
        if (!this.stopped) this.restartTimer = setTimeout(() => void this.subscribe().catch(() => undefined), 1000);
      },
    });
  }

  private async handle(batch: RecordedEvent[]): Promise<void> {
    const ops: WriteOp[] = [];
    const moved: Record<string, number> = {};
    const last = batch[batch.length - 1].position;
    this.projectors.forEach((projector, i) => {
      const checkpoint = this.checkpoints[projector.name];
      if (last <= checkpoint) return;
      const wants = this.wants[i];
      for (const event of batch) {
        if (event.position <= checkpoint || !wants(event.type)) continue;
        for (const op of projector.project(event)) {
          op.at = event.position;
          ops.push(op);
        }
      }
      moved[projector.name] = last;
    });
    if (Object.keys(moved).length > 0) await this.read.apply(coalesce(ops), moved);
    Object.assign(this.checkpoints, moved);
    this.applied = last;
    if (this.pendingIndexes && this.applied >= this.pendingIndexes.head) {
      // Caught up: the bulk-loaded collections get their indexes before anyone waiting is answered.
      const { collections } = this.pendingIndexes;
      this.pendingIndexes = null;
      await this.read.init(collections);
    }
    for (const listener of this.appliedListeners) listener(batch);
    this.release();
  }

  private release() {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.position <= this.applied) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  /**
   * Runs `work` while no live batch is being applied (and none starts until it ends): the moment
   * for a blue/green swap or a consistent comparison.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  projectorNames(): string[] {
    return this.projectors.map((p) => p.name);
  }

  projector(name: string): Projector | undefined {
    return this.projectors.find((p) => p.name === name);
  }

  /** The live checkpoint of one projection (only stable inside `exclusive`). */
  checkpointOf(name: string): number {
    return this.checkpoints[name] ?? START;
  }

  /** Called after each batch reaches the read models (e.g. to drop cached views of them). */
  onApplied(listener: (events: RecordedEvent[]) => void): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /** Position up to which every projection has been applied. */
  position(): number {
    return this.applied;
  }

  /** Resolves true once every projection has applied `position`, false after `timeoutMs`. */
  waitFor(position: number, timeoutMs = 10_000): Promise<boolean> {
    if (position <= this.applied) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        this.logger.warn(`Read models did not reach position ${position} within ${timeoutMs} ms`);
        resolve(false);
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.subscription?.stop();
    this.subscription = null;
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }
}
