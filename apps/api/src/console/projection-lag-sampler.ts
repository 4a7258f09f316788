import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { GetProjectionStatusQuery } from '@app/application';

/** How often the lag is sampled, and how many samples are kept: the last ten minutes. */
export const LAG_SAMPLE_EVERY_MS = 5_000;
export const LAG_SAMPLES_KEPT = 120;

export interface LagSample {
  at: number;
  /** Each projection's lag in events, as the projection status counts it. */
  lag: Record<string, number>;
}

/**
 * Samples every projection's lag at a fixed interval, in memory, for the console's live chart:
 * the same query as `GET /v1/admin/projections`, on every process (a replica reads the
 * projector's stored checkpoints). A sample that fails (a store unreachable for a moment) is
 * skipped; the timer never keeps the process alive.
 */
@Injectable()
export class ProjectionLagSampler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Console');
  private readonly samples: LagSample[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sampling = false;

  constructor(
    private readonly queries: QueryBus,
    readonly everyMs = LAG_SAMPLE_EVERY_MS,
    readonly kept = LAG_SAMPLES_KEPT,
  ) {}

  onApplicationBootstrap(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.everyMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The samples kept, oldest first. */
  history(): readonly LagSample[] {
    return this.samples;
  }

  /** Takes one sample now (one at a time: a slow store never piles them up). */
  async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const { projections } = await this.queries.execute(new GetProjectionStatusQuery());
      this.record({ at: Date.now(), lag: Object.fromEntries(projections.map((p) => [p.name, p.lag])) });
    } catch (error) {
      this.logger.debug(`Projection lag not sampled: ${(error as Error)?.message}`);
    } finally {
      this.sampling = false;
    }
  }

  record(sample: LagSample): void {
    this.samples.push(sample);
    if (this.samples.length > this.kept) this.samples.splice(0, this.samples.length - this.kept);
  }
}
