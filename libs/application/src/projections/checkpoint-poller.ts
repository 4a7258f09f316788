import { DeadLetter, ReadModelStore } from '../ports/read-model.port';
import { ReadScope, ReadYourWrites } from '../ports/read-your-writes.port';

/** How long a read of the dead letters stays good enough to answer a write that needs no poll. */
const DEAD_LETTERS_FRESH_MS = 1000;

interface PollWaiter {
  position: number;
  names: readonly string[];
  settle(outcome: boolean | Error): void;
}

/**
 * Read-your-writes for a process that does not run the projections itself (an API replica of the
 * scaled deployment, PROJECTIONS=external): waits until the projector worker's checkpoints, as
 * stored with the read models, have reached the position of the write, for the projections that
 * serve the written resource. Like the engine, it answers false after the timeout and when one of
 * those projections holds a dead letter of the written stream.
 *
 * One poll loop per process serves every waiting write: while anyone waits, it reads the
 * checkpoints and the dead letters together every `intervalMs` and answers each waiter whose
 * position they reached; it stops when nobody waits. A hundred concurrent writes cost the store
 * the same one read per interval as a single one (a poll per request would cost a hundred). A
 * write whose position is already reached answers without a read; its dead letters are read at
 * most once a second.
 *
 * When the store can watch its checkpoints (MongoDB's change stream), the loop reads when a
 * checkpoint changes instead of every `intervalMs`, and every `fallbackIntervalMs` anyway (a
 * change stream can lag or die); if the watch fails, the loop polls every `intervalMs` and tries
 * to watch again after `rewatchMs`.
 */
export class CheckpointPoller implements ReadYourWrites {
  private readonly reached = new Map<string, number>();
  private deadLetters: { at: number; letters: DeadLetter[] } = { at: -Infinity, letters: [] };
  private readonly waiters = new Set<PollWaiter>();
  private polling = false;
  /** Reads of the store made by the loop (one per interval, or per change, while anyone waits). */
  polls = 0;
  private watch: { close(): Promise<void> } | null = null;
  private watchFailedAt = -Infinity;
  /** A checkpoint changed since the loop's last read (set by the watch). */
  private changed = false;
  private wake: (() => void) | null = null;
  private readonly fallbackIntervalMs: number;
  private readonly rewatchMs: number;

  constructor(
    private readonly read: ReadModelStore,
    private readonly projections: string[],
    private readonly options: {
      intervalMs: number;
      timeoutMs: number;
      fallbackIntervalMs?: number;
      rewatchMs?: number;
    } = {
      intervalMs: 5,
      timeoutMs: 10_000,
    },
  ) {
    this.fallbackIntervalMs = options.fallbackIntervalMs ?? 250;
    this.rewatchMs = options.rewatchMs ?? 30_000;
  }

  /** Whether a watch of the store's checkpoints is live (else the loop polls every `intervalMs`). */
  watching(): boolean {
    return this.watch !== null;
  }

  async waitFor(position: number, scope: ReadScope = {}): Promise<boolean> {
    const names = scope.projections ?? this.projections;
    if (position > this.lowest(names)) {
      // The loop's read brings the dead letters with the checkpoints: no second round trip.
      if (!(await this.wait(position, names))) return false;
    } else if (scope.streamId !== undefined && Date.now() - this.deadLetters.at > DEAD_LETTERS_FRESH_MS) {
      await this.refreshDeadLetters();
    }
    if (scope.streamId === undefined) return true;
    return !this.deadLetters.letters.some((d) => d.streamId === scope.streamId && names.includes(d.projection));
  }

  /** Answers every waiter false at once (shutdown): nobody waits out the timeout for a closing store. */
  stop(): void {
    for (const waiter of [...this.waiters]) waiter.settle(false);
    const watch = this.watch;
    this.watch = null;
    this.watchFailedAt = Infinity; // never again
    void watch?.close().catch(() => undefined);
  }

  private startWatching() {
    if (this.watch || !this.read.watchCheckpoints || Date.now() - this.watchFailedAt < this.rewatchMs) return;
    try {
      const watch = this.read.watchCheckpoints(
        () => {
          this.changed = true;
          this.wake?.();
        },
        () => {
          if (this.watch !== watch) return;
          this.watch = null;
          this.watchFailedAt = Date.now();
          void watch.close().catch(() => undefined);
          this.wake?.();
        },
      );
      this.watch = watch;
    } catch {
      this.watchFailedAt = Date.now();
    }
  }

  /** Until the interval passes, or (watching) a checkpoint changes. */
  private pause(): Promise<void> {
    if (this.watch && this.changed) return Promise.resolve();
    const interval = this.watch ? this.fallbackIntervalMs : this.options.intervalMs;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, interval);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => {
      this.wake = null;
    });
  }

  private wait(position: number, names: readonly string[]): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => waiter.settle(false), this.options.timeoutMs);
      const waiter: PollWaiter = {
        position,
        names,
        settle: (outcome) => {
          if (!this.waiters.delete(waiter)) return;
          clearTimeout(timer);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        },
      };
      this.waiters.add(waiter);
      if (!this.polling) void this.poll();
    });
  }

  private async poll(): Promise<void> {
    this.polling = true;
    try {
      this.startWatching();
      while (this.waiters.size > 0) {
        this.changed = false;
        try {
          const [checkpoints] = await Promise.all([this.read.getCheckpoints(), this.refreshDeadLetters()]);
          this.polls++;
          for (const [name, position] of Object.entries(checkpoints)) this.raise(name, position);
          for (const waiter of [...this.waiters]) if (waiter.position <= this.lowest(waiter.names)) waiter.settle(true);
        } catch (error) {
          // The store failed: those waiting now hear it, as they would have from their own read.
          for (const waiter of [...this.waiters])
            waiter.settle(error instanceof Error ? error : new Error(String(error)));
        }
        if (this.waiters.size > 0) await this.pause();
      }
    } finally {
      this.polling = false;
    }
  }

  private raise(name: string, position: number) {
    this.reached.set(name, Math.max(this.reached.get(name) ?? 0, position));
  }

  private lowest(names: readonly string[]): number {
    let lowest = Infinity;
    for (const name of names) lowest = Math.min(lowest, this.reached.get(name) ?? 0);
    return lowest;
  }

  private async refreshDeadLetters(): Promise<void> {
    this.deadLetters = { at: Date.now(), letters: await this.read.listDeadLetters() };
  }
}
