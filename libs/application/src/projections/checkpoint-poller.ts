import { ReadModelStore } from '../ports/read-model.port';
import { ReadYourWrites } from '../ports/read-your-writes.port';

/**
 * Read-your-writes for a process that does not run the projections itself (an API replica of the
 * scaled deployment, PROJECTIONS=external): waits until the projector worker's checkpoints, as
 * stored with the read models, have all reached the position of the write.
 */
export class CheckpointPoller implements ReadYourWrites {
  private reached = 0;

  constructor(
    private readonly read: ReadModelStore,
    private readonly projections: string[],
    private readonly options: { intervalMs: number; timeoutMs: number } = { intervalMs: 5, timeoutMs: 10_000 },
  ) {}

  async waitFor(position: number): Promise<boolean> {
    const deadline = Date.now() + this.options.timeoutMs;
    while (position > this.reached) {
      const checkpoints = await this.read.getCheckpoints();
      this.reached = Math.max(this.reached, Math.min(...this.projections.map((name) => checkpoints[name] ?? 0)));
      if (position <= this.reached) break;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.options.intervalMs));
    }
    return true;
  }
}
