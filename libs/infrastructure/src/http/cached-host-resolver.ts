import type { HostResolver } from '@app/application/ports';
import { dropOldest } from '@app/application/shared/drop-oldest';

/**
 * Remembers what a name resolved to for a short while, and lets concurrent look-ups of one name
 * share a single query. Deliveries to one receiver otherwise cost a getaddrinfo each (a trip to
 * the libuv thread pool): at a few thousand deliveries a second that was a tenth of the process.
 *
 * It only saves the look-up. The caller still checks every address it gets on every attempt and
 * connects to the address it checked, so the SSRF guard is unchanged; an answer is at most
 * `ttlMs` old, far less than any DNS TTL a resolver would honour anyway. A name that does not
 * resolve is not remembered (it may resolve on the next attempt), nor is a failed look-up.
 */
export class CachedHostResolver implements HostResolver {
  private readonly answers = new Map<string, { addresses: string[]; until: number }>();
  private readonly pending = new Map<string, Promise<string[]>>();

  constructor(
    private readonly inner: HostResolver,
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  async resolve(hostname: string, timeoutMs: number): Promise<string[]> {
    const key = hostname.toLowerCase();
    const cached = this.answers.get(key);
    if (cached && cached.until > this.now()) return cached.addresses;
    if (cached) this.answers.delete(key);
    let lookup = this.pending.get(key);
    if (!lookup) {
      lookup = this.inner.resolve(hostname, timeoutMs).finally(() => this.pending.delete(key));
      this.pending.set(key, lookup);
      void lookup.then(
        (addresses) => addresses.length > 0 && this.remember(key, addresses),
        () => undefined,
      );
    }
    return lookup;
  }

  private remember(key: string, addresses: string[]) {
    if (this.ttlMs <= 0) return;
    this.answers.delete(key);
    this.answers.set(key, { addresses, until: this.now() + this.ttlMs });
    dropOldest(this.answers, this.maxEntries);
  }
}
