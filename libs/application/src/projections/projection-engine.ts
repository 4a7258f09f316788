import { EventStore, RecordedEvent, START, Subscription } from '../ports/event-store.port';
import { CollectionSpec, DeadLetter, DeadLetterKey, ReadModelStore, WriteOp } from '../ports/read-model.port';
import { ReadScope, ReadYourWrites } from '../ports/read-your-writes.port';
import { coalesce } from './coalesce';
import { checkReadModelsSource } from './event-store-stamp';
import { eventFilter, Projector } from './projector';

export interface EngineLogger {
  error(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
}

interface Waiter {
  position: number;
  /** Projections whose checkpoints must reach `position`; null: every projection. */
  projections: readonly string[] | null;
  /** When it is answered false if not reached by then (ms since the epoch), and the wait it was given. */
  deadline: number;
  timeoutMs: number;
  /** `reached`: the position was applied (false when the engine stops first). */
  resolve(reached: boolean): void;
}

export interface EngineOptions {
  /** How long `waitFor` waits by default before answering false (ms). */
  readYourWritesTimeoutMs?: number;
  /** Resubscription delays after a store error: doubling from `min` up to `max` (ms). */
  backoff?: { minMs: number; maxMs: number };
  /** Milliseconds since the epoch, for the dead letters' timestamps. */
  now?: () => number;
}

/** What an operator's retry of a dead letter did. */
export type RetryResult =
  { outcome: 'applied'; deadLetter: DeadLetter } | { outcome: 'failed'; deadLetter: DeadLetter };

export class UnknownDeadLetterError extends Error {
  constructor(key: DeadLetterKey) {
    super(`No dead letter at position ${key.position} of projection ${key.projection}`);
    this.name = 'UnknownDeadLetterError';
  }
}

/**
 * An operation that writes the read models or needs the live checkpoints in memory (rebuild,
 * verify, dead-letter retry and skip) asked of a process that does not run the projections (a
 * replica). Run there, a rebuild would replay "up to checkpoint 0" and swap empty read models over
 * the live ones.
 */
export class ProjectorOnlyError extends Error {
  constructor(readonly operation: string) {
    super(
      `${operation} runs only on the projector (the one process that runs the projections); this process only reads the read models`,
    );
    this.name = 'ProjectorOnlyError';
  }
}

const DEFAULT_BACKOFF = { minMs: 100, maxMs: 30_000 };

/**
 * Feeds the event store's $all into every projector through one subscription, from the lowest
 * checkpoint. Each batch of events becomes one read-model write together with the projectors'
 * new checkpoints; a projector skips events at or below its own checkpoint, so projectors that
 * are behind (a new one, or one being rebuilt) catch up without replaying the others.
 *
 * `waitFor(position, scope)` is how a write request gives read-your-writes: it is answered once the
 * projections serving the written resource have applied the events it caused, and says whether
 * they really show them (false after the timeout, or when one of them parked an event of the
 * resource's stream).
 *
 * Failures are contained:
 * - a projector that throws on an event parks that event as a dead letter of its own projection
 *   (stored in the same transaction that moves its checkpoint past it) and goes on; the other
 *   projections never notice. The hot path stays batched: only a batch in which a projector threw
 *   is run again, event by event, for that projector alone, to find the poison events;
 * - a subscription that dies (or cannot start) on a store error is restarted with exponential
 *   backoff, from `backoff.minMs` doubling up to `backoff.maxMs`, reset once a batch is applied.
 */
export class ProjectionEngine implements ReadYourWrites {
  private subscription: Subscription | null = null;
  private applied = START;
  private checkpoints: Record<string, number> = {};
  private waiters: Waiter[] = [];
  /** One timer for every waiter's deadline, set for the earliest (a timer per write cost ~1.5% of a POST). */
  private deadlineTimer: NodeJS.Timeout | null = null;
  private armedFor = Infinity;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly appliedListeners = new Set<(events: RecordedEvent[]) => void>();
  /** Live application and maintenance steps (swaps) run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly wants: ((type: string) => boolean)[];
  /** Collections being filled from the start of history; their indexes are built at `head`. */
  private pendingIndexes: { head: number; collections: CollectionSpec[] } | null = null;
  /** Current dead letters: projection -> stream -> how many (what `waitFor` and `/ready` ask). */
  private readonly parked = new Map<string, Map<string, number>>();
  private readonly parkedListeners = new Set<(letter: DeadLetter) => void>();
  /** Consecutive failed (re)subscriptions: the next delay is min * 2^failures, capped. */
  private failures = 0;
  private readonly timeoutMs: number;
  private readonly backoff: { minMs: number; maxMs: number };
  private readonly now: () => number;

  constructor(
    private readonly events: EventStore,
    private readonly read: ReadModelStore,
    private readonly projectors: Projector[],
    private readonly logger: EngineLogger,
    options: EngineOptions = {},
  ) {
    this.wants = projectors.map(eventFilter);
    this.timeoutMs = options.readYourWritesTimeoutMs ?? 10_000;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.now = options.now ?? Date.now;
  }

  async start(): Promise<void> {
    // Checkpoints of another event store are refused before anything subscribes from them.
    await checkReadModelsSource(this.events, this.read, { stamp: true });
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
    const names = new Set(this.projectorNames());
    for (const letter of await this.read.listDeadLetters())
      if (names.has(letter.projection)) this.indexParked(letter, 1);
    this.stopped = false;
    await this.subscribe();
  }

  /** Subscribes from the lowest checkpoint; on failure (now or later) tries again after the backoff. */
  private async subscribe(): Promise<void> {
    this.restartTimer = null;
    if (this.stopped) return;
    try {
      const stored = await this.read.getCheckpoints();
      this.checkpoints = Object.fromEntries(this.projectors.map((p) => [p.name, stored[p.name] ?? START]));
      const from = Math.min(...Object.values(this.checkpoints));
      this.applied = Math.max(this.applied, from);
      const subscription = this.events.subscribeToAll({
        after: from,
        onEvents: (batch) => this.exclusive(() => this.handle(batch)),
        onError: (error) => {
          if (this.subscription !== subscription) return;
          this.subscription = null;
          this.restartLater('Projection subscription failed', error);
        },
      });
      this.subscription = subscription;
      if (this.stopped) await subscription.stop();
    } catch (error) {
      this.restartLater('Projection subscription could not start', error);
    }
  }

  private restartLater(what: string, error: unknown) {
    if (this.stopped) return;
    const delay = Math.min(this.backoff.maxMs, this.backoff.minMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    this.logger.error(`${what}; restarting in ${delay} ms (attempt ${this.failures})`, error);
    this.restartTimer = setTimeout(() => void this.subscribe(), delay);
  }

  private async handle(batch: RecordedEvent[]): Promise<void> {
    const ops: WriteOp[] = [];
    const moved: Record<string, number> = {};
    let park: DeadLetter[] | undefined;
    const last = batch[batch.length - 1].position;
    this.projectors.forEach((projector, i) => {
      const checkpoint = this.checkpoints[projector.name];
      if (last <= checkpoint) return;
      const wants = this.wants[i];
      const start = ops.length;
      // One try per projector per batch: nothing is paid per event unless a projector throws.
      try {
        for (const event of batch) {
          if (event.position <= checkpoint || !wants(event.type)) continue;
          for (const op of projector.project(event)) {
            op.at = event.position;
            ops.push(op);
          }
        }
      } catch {
        ops.length = start;
        park = (park ?? []).concat(this.isolate(projector, wants, batch, checkpoint, ops));
      }
      moved[projector.name] = last;
    });
    if (Object.keys(moved).length > 0) await this.read.apply(coalesce(ops), moved, park ? { park } : undefined);
    this.failures = 0;
    if (park) {
      for (const letter of park) {
        this.indexParked(letter, 1);
        this.logger.error(
          `Projection ${letter.projection} parked event ${letter.eventId} (${letter.eventType}, position ${letter.position}, stream ${letter.streamId}): ${letter.error}`,
        );
        for (const listener of this.parkedListeners) listener(letter);
      }
    }
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

  /**
   * The failure path: runs one projector over the batch again, event by event, keeping the ops of
   * the events it can project (pushed onto `ops`) and returning a dead letter for each it cannot.
   */
  private isolate(
    projector: Projector,
    wants: (type: string) => boolean,
    batch: RecordedEvent[],
    checkpoint: number,
    ops: WriteOp[],
  ): DeadLetter[] {
    const letters: DeadLetter[] = [];
    for (const event of batch) {
      if (event.position <= checkpoint || !wants(event.type)) continue;
      let produced: WriteOp[];
      try {
        produced = projector.project(event);
      } catch (error) {
        const at = this.now();
        letters.push({
          projection: projector.name,
          position: event.position,
          eventId: event.id,
          streamId: event.streamId,
          eventType: event.type,
          error: errorMessage(error),
          firstFailedAt: at,
          lastFailedAt: at,
          attempts: 1,
        });
        continue;
      }
      for (const op of produced) {
        op.at = event.position;
        ops.push(op);
      }
    }
    return letters;
  }

  private indexParked(letter: DeadLetterKey & { streamId: string }, delta: 1 | -1) {
    let streams = this.parked.get(letter.projection);
    if (!streams) this.parked.set(letter.projection, (streams = new Map()));
    const count = (streams.get(letter.streamId) ?? 0) + delta;
    if (count > 0) streams.set(letter.streamId, count);
    else streams.delete(letter.streamId);
  }

  private reached(position: number, projections: readonly string[] | null): boolean {
    if (projections === null) return position <= this.applied;
    for (const name of projections) if ((this.checkpoints[name] ?? START) < position) return false;
    return true;
  }

  /** Whether one of `projections` (null: any) holds a dead letter of `streamId`. */
  private parkedIn(projections: readonly string[] | null, streamId: string | undefined): boolean {
    if (streamId === undefined) return false;
    for (const [name, streams] of this.parked) {
      if ((projections === null || projections.includes(name)) && streams.has(streamId)) return true;
    }
    return false;
  }

  private release() {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (this.reached(waiter.position, waiter.projections)) waiter.resolve(true);
      else still.push(waiter);
    }
    this.waiters = still;
    if (still.length === 0) this.disarm();
  }

  /** Sets the deadline timer for `deadline` unless it is already set for an earlier one. */
  private arm(deadline: number) {
    if (this.deadlineTimer && deadline >= this.armedFor) return;
    this.disarm();
    this.armedFor = deadline;
    this.deadlineTimer = setTimeout(() => this.expire(), Math.max(0, deadline - Date.now()));
  }

  private disarm() {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    this.armedFor = Infinity;
  }

  /** Answers false to every waiter past its deadline, and sets the timer for the next. */
  private expire() {
    this.deadlineTimer = null;
    this.armedFor = Infinity;
    const now = Date.now();
    const still: Waiter[] = [];
    let next = Infinity;
    for (const waiter of this.waiters) {
      if (waiter.deadline <= now) {
        this.logger.warn(`Read models did not reach position ${waiter.position} within ${waiter.timeoutMs} ms`);
        waiter.resolve(false);
      } else {
        still.push(waiter);
        next = Math.min(next, waiter.deadline);
      }
    }
    this.waiters = still;
    if (next !== Infinity) this.arm(next);
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

  /** Whether this process runs the projections (started and not stopped). */
  running(): boolean {
    return !this.stopped;
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

  /**
   * Resolves true once the projections of `scope` (default: all) have applied `position` and none
   * of them holds a dead letter of `scope.streamId`; false when one does, or after `timeoutMs`.
   */
  waitFor(position: number, scope: ReadScope = {}, timeoutMs = this.timeoutMs): Promise<boolean> {
    const projections = scope.projections ?? null;
    const visible = () => !this.parkedIn(projections, scope.streamId);
    if (this.reached(position, projections)) return Promise.resolve(visible());
    return new Promise((resolve) => {
      const deadline = Date.now() + timeoutMs;
      this.waiters.push({
        position,
        projections,
        deadline,
        timeoutMs,
        resolve: (reached) => resolve(reached && visible()),
      });
      this.arm(deadline);
    });
  }

  /** Called once per event a projection parks (e.g. to count them). */
  onParked(listener: (letter: DeadLetter) => void): () => void {
    this.parkedListeners.add(listener);
    return () => this.parkedListeners.delete(listener);
  }

  /** Current dead letters per projection (every projection named, 0 when it has none). */
  deadLetterCounts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const name of this.projectorNames()) {
      let total = 0;
      for (const n of this.parked.get(name)?.values() ?? []) total += n;
      counts[name] = total;
    }
    return counts;
  }

  listDeadLetters(projection?: string): Promise<DeadLetter[]> {
    return this.read.listDeadLetters(projection);
  }

  /**
   * Reads the parked event again from the store and runs its projector on it: when it projects,
   * its writes are applied and the dead letter removed in one transaction; when it throws again,
   * the dead letter records one more attempt and the new error. Runs between live batches.
   */
  retryDeadLetter(key: DeadLetterKey): Promise<RetryResult> {
    // Only the process that runs the projections writes the read models (a replica never does).
    if (this.stopped) return Promise.reject(new ProjectorOnlyError('A dead-letter retry'));
    return this.exclusive(async () => {
      const letter = await this.findDeadLetter(key);
      const projector = this.projector(letter.projection);
      if (!projector) throw new UnknownDeadLetterError(key);
      const event = await this.readEvent(letter);
      let ops: WriteOp[];
      try {
        ops = projector.project(event);
      } catch (error) {
        const again: DeadLetter = {
          ...letter,
          error: errorMessage(error),
          lastFailedAt: this.now(),
          attempts: letter.attempts + 1,
        };
        await this.read.apply([], {}, { park: [again] });
        this.logger.warn(
          `Retry of ${letter.projection} dead letter at ${letter.position} failed again: ${again.error}`,
        );
        return { outcome: 'failed', deadLetter: again };
      }
      for (const op of ops) op.at = event.position;
      await this.read.apply(ops, {}, { remove: [key] });
      this.indexParked(letter, -1);
      this.logger.warn(`Retried ${letter.projection} dead letter at ${letter.position} (${letter.eventType}): applied`);
      return { outcome: 'applied', deadLetter: letter };
    });
  }

  /** Drops a dead letter without applying it (the operator accepts the read model as it is). */
  skipDeadLetter(key: DeadLetterKey): Promise<DeadLetter> {
    if (this.stopped) return Promise.reject(new ProjectorOnlyError('A dead-letter skip'));
    return this.exclusive(async () => {
      const letter = await this.findDeadLetter(key);
      await this.read.apply([], {}, { remove: [key] });
      this.indexParked(letter, -1);
      this.logger.warn(
        `Skipped ${letter.projection} dead letter at ${letter.position} (${letter.eventType}, event ${letter.eventId})`,
      );
      return letter;
    });
  }

  private async findDeadLetter(key: DeadLetterKey): Promise<DeadLetter> {
    const letter = (await this.read.listDeadLetters(key.projection)).find((d) => d.position === key.position);
    if (!letter) throw new UnknownDeadLetterError(key);
    return letter;
  }

  /** The parked event, at its position (one read), else from its stream by id. */
  private async readEvent(letter: DeadLetter): Promise<RecordedEvent> {
    const atPosition = await this.events.readAt(letter.position);
    if (atPosition?.id === letter.eventId) return atPosition;
    const found = (await this.events.readStream(letter.streamId)).find((e) => e.id === letter.eventId);
    if (!found)
      throw new Error(
        `Event ${letter.eventId} of dead letter ${letter.projection}@${letter.position} is not in the store`,
      );
    return found;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    await this.subscription?.stop();
    this.subscription = null;
    // Nobody waits out the timeout for a stopped engine; they are told it did not get there.
    this.disarm();
    for (const waiter of this.waiters) waiter.resolve(false);
    this.waiters = [];
  }
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
