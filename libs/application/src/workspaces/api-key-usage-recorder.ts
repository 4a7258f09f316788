import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { API_KEY_USAGE_STORE, ApiKeyUsageStore } from '../ports/api-key-usage-store.port';
import { CLOCK, Clock } from '../ports/clock.port';

/** How often the keys used since the last flush are written, and so the granularity of "last used". */
export const API_KEY_USAGE_FLUSH_MS = 60_000;

/**
 * "Last used" of API keys without a write per request: the authenticator notes each key it lets
 * through in a set (`note`, one `Set.add`), and once a minute the keys noted since the last flush
 * are written together, each stamped with the flush's time (`ApiKeyUsageStore.record`). A key is
 * written at most once a minute per process, however many requests it made. What a crash loses is
 * the last minute's notes, which the next request of each key notes again.
 */
@Injectable()
export class ApiKeyUsageRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ApiKeyUsage');
  private noted = new Set<string>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(API_KEY_USAGE_STORE) private readonly store: ApiKeyUsageStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit() {
    this.timer = setInterval(() => void this.flush(), API_KEY_USAGE_FLUSH_MS);
    this.timer.unref();
  }

  async onModuleDestroy() {
    clearInterval(this.timer);
    await this.flush();
    await this.store.close();
  }

  /** The key served a request (the request's path: nothing but a set insertion). */
  note(keyId: string): void {
    this.noted.add(keyId);
  }

  /** Writes the keys noted since the last flush; one flush at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.noted.size === 0) return;
      const keys = this.noted;
      this.noted = new Set();
      const at = this.clock.now();
      try {
        await this.store.record(new Map([...keys].map((key) => [key, at])));
      } catch (error) {
        // Kept for the next flush: a store that is down for a while loses no key.
        for (const key of keys) this.noted.add(key);
        this.logger.warn(`Could not record API keys' last use: ${(error as Error)?.message ?? error}`);
      }
    });
    return this.flushing;
  }

  /** The last recorded use of each key, with what this process noted and has not flushed yet. */
  async lastUsed(keyIds: readonly string[]): Promise<Map<string, number>> {
    const found = await this.store.lastUsed(keyIds);
    const now = this.clock.now();
    for (const key of keyIds) if (this.noted.has(key)) found.set(key, now);
    return found;
  }
}
