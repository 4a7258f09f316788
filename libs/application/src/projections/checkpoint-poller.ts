import { DeadLetter, ReadModelStore } from '../ports/read-model.port';
import { ReadScope, ReadYourWrites } from '../ports/read-your-writes.port';

/** How long a read of the dead letters stays good enough to answer a write that needs no poll. */
const DEAD_LETTERS_FRESH_MS = 1000;

/**
 * Read-your-writes for a process that does not run the projections itself (an API replica of the
 * scaled deployment, PROJECTIONS=external): waits until the projector worker's checkpoints, as
 * stored with the read models, have reached the position of the write, for the projections that
 * serve the written resource. Like the engine, it answers false after the timeout and when one of
 * those projections holds a dead letter of the written stream; the dead letters are read with the
 * checkpoints (at most once a second when no poll is needed), so a write pays no extra round trip.
 */
export class CheckpointPoller implements ReadYourWrites {
  private readonly reached = new Map<string, number>();
  private deadLetters: { at: number; letters: DeadLetter[] } = { at: -Infinity, letters: [] };

  constructor(
    private readonly read: ReadModelStore,
    private readonly projections: string[],
    private readonly options: { intervalMs: number; timeoutMs: number } = { intervalMs: 5, timeoutMs: 10_000 },
  ) {}

  async waitFor(position: number, scope: ReadScope = {}): Promise<boolean> {
    const names = scope.projections ?? this.projections;
    const deadline = Date.now() + this.options.timeoutMs;
    let polled = false;
    while (position > this.lowest(names)) {
      const [checkpoints] = await Promise.all([this.read.getCheckpoints(), this.refreshDeadLetters()]);
      polled = true;
      for (const name of names) this.reached.set(name, Math.max(this.reached.get(name) ?? 0, checkpoints[name] ?? 0));
      if (position <= this.lowest(names)) break;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.options.intervalMs));
    }
    if (scope.streamId === undefined) return true;
    if (!polled && Date.now() - this.deadLetters.at > DEAD_LETTERS_FRESH_MS) await this.refreshDeadLetters();
    return !this.deadLetters.letters.some((d) => d.streamId === scope.streamId && names.includes(d.projection));
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
