import { DynamicModule, Inject, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, Clock, IDEMPOTENCY_STORE, IdempotencyStore, RATE_LIMIT_STORE, RateLimitStore } from '@app/application';
import { openIdempotencyStore, openRateLimitStore } from '../adapters';
import type { AppConfig } from '../config';
import { Idempotency } from './idempotency';
import { RateLimiter } from './rate-limiter';

const PURGE_EVERY_MS = 3600_000;

/** Purges expired idempotency records (at start and hourly) and closes the limit stores at shutdown. */
class LimitsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Limits');
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly idempotency: IdempotencyStore,
    @Inject(RATE_LIMIT_STORE) private readonly rateLimits: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap() {
    await this.purge();
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  private async purge() {
    try {
      const purged = await this.idempotency.purgeExpired(this.clock.now());
      if (purged > 0) this.logger.log(`Purged ${purged} expired idempotency records`);
    } catch (error) {
      this.logger.warn(`Purging idempotency records failed: ${(error as Error)?.message ?? error}`);
    }
  }

  async onApplicationShutdown() {
    clearInterval(this.timer);
    await this.idempotency.close();
    await this.rateLimits.close();
  }
}

/**
 * Request-rate limits (docs/api.md, Limits) and idempotent POST retries, for every route, both as
 * Fastify hooks. Optimistic concurrency (ETag / If-Match) is per route: see http/conditional.ts.
 */
@Module({})
export class LimitsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: LimitsModule,
      providers: [
        { provide: RATE_LIMIT_STORE, useFactory: () => openRateLimitStore(config) },
        { provide: IDEMPOTENCY_STORE, useFactory: () => openIdempotencyStore(config) },
        RateLimiter,
        Idempotency,
        LimitsLifecycle,
      ],
    };
  }
}
