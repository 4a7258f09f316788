import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { API_KEY_USAGE_STORE, ApiKeyUsageStore, DailyRequests, dayOf } from '../ports/api-key-usage-store.port';
import { CLOCK, Clock } from '../ports/clock.port';

/** How often the keys used since the last flush are written, and so the granularity of "last used". */
export const API_KEY_USAGE_FLUSH_MS = 60_000;

/**
 * "Last used" and requests per day of API keys without a write per request: the authenticator
 * notes each key it lets through in a map of counts (`note`, one `Map.set`), and once a minute
 * the keys noted since the last flush are written together, each stamped with the flush's time
 * and its count added to that UTC day (`ApiKeyUsageStore.record`). A key is written at most once
 * a minute per process, however many requests it made. What a crash loses is the last minute's
 * notes: the next request of each key notes it again, but the lost minute's requests are not
 * counted.
 */
@Injectable()
export class ApiKeyUsageRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ApiKeyUsage');
  private noted = new Map<string, number>();
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

  /** The key served a request (the request's path: nothing but a map update). */
  note(keyId: string): void {
    this.noted.set(keyId, (this.noted.get(keyId) ?? 0) + 1);
  }

  /** Writes the keys noted since the last flush; one flush at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.noted.size === 0) return;
      const counts = this.noted;
      this.noted = new Map();
      const at = this.clock.now();
      try {
        await this.store.record(new Map([...counts.keys()].map((key) => [key, at])), counts);
      } catch (error) {
        // Kept for the next flush: a store that is down for a while loses no key nor request.
        for (const [key, count] of counts) this.noted.set(key, (this.noted.get(key) ?? 0) + count);
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

  /** Requests per key and UTC day from `sinceDay` on, with what this process counted and has not flushed yet (today's). */
  async dailyRequests(keyIds: readonly string[], sinceDay: number): Promise<DailyRequests[]> {
    const found = await this.store.dailyRequests(keyIds, sinceDay);
    const today = dayOf(this.clock.now());
    if (today < sinceDay) return found;
    for (const keyId of keyIds) {
      const pending = this.noted.get(keyId);
      if (!pending) continue;
      const row = found.find((r) => r.keyId === keyId && r.day === today);
      if (row) row.requests += pending;
      else found.push({ keyId, day: today, requests: pending });
    }
    return found;
  }
}
