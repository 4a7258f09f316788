import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import { RateLimitDecision, RateLimitPolicy, RateLimitStore } from '@app/application/ports';

/**
 * The sliding window of buckets of the port, in one Lua script so that reading, deciding and
 * counting are one atomic step however many API instances share the server.
 *
 * KEYS: one hash per policy, field = bucket index, value = requests counted in that bucket.
 * ARGV: now (ms), then limit, windowMs, bucketMs for each key in order.
 * Returns: allowed (0/1), retryAfterMs, then remaining and resetMs per policy.
 *
 * As in the in-process adapter, time never runs backwards for a hash: an instance whose clock
 * is behind the newest bucket already written counts in that newest bucket.
 */
const CONSUME = `
local now = tonumber(ARGV[1])
local n = #KEYS
local limits, spans, widths, curs, totals, lists = {}, {}, {}, {}, {}, {}
local allowed = 1
for i = 1, n do
  local base = 2 + (i - 1) * 3
  local limit = tonumber(ARGV[base])
  local width = tonumber(ARGV[base + 2])
  local span = tonumber(ARGV[base + 1]) / width
  local raw = redis.call('HGETALL', KEYS[i])
  local cur = math.floor(now / width)
  for j = 1, #raw, 2 do
    local b = tonumber(raw[j])
    if b > cur then cur = b end
  end
  local list, total = {}, 0
  for j = 1, #raw, 2 do
    local b = tonumber(raw[j])
    if b < cur - span then
      redis.call('HDEL', KEYS[i], raw[j])
    else
      local c = tonumber(raw[j + 1])
      total = total + c
      list[#list + 1] = { b, c }
    end
  end
  table.sort(list, function(x, y) return x[1] < y[1] end)
  limits[i], spans[i], widths[i], curs[i], totals[i], lists[i] = limit, span, width, cur, total, list
  if total >= limit then allowed = 0 end
end

local out = { allowed, 0 }
local retry = 0
for i = 1, n do
  local limit, span, width, cur, total, list = limits[i], spans[i], widths[i], curs[i], totals[i], lists[i]
  local reset = 0
  if allowed == 1 then
    redis.call('HINCRBY', KEYS[i], string.format('%d', cur), 1)
    total = total + 1
    reset = (cur + span + 1) * width - now
    redis.call('PEXPIRE', KEYS[i], reset)
  else
    if total > 0 then reset = (list[#list][1] + span + 1) * width - now end
    if total >= limit then
      local left = total
      for k = 1, #list do
        left = left - list[k][2]
        if left < limit then
          local wait = (list[k][1] + span + 1) * width - now
          if wait > retry then retry = wait end
          break
        end
      end
    end
  end
  local remaining = limit - total
  if remaining < 0 then remaining = 0 end
  out[#out + 1] = remaining
  out[#out + 1] = reset
end
out[2] = retry
return out
`;
const CONSUME_SHA = createHash('sha1').update(CONSUME).digest('hex');

export interface RedisRateLimitStoreOptions {
  /** Prefix of every key this store writes. */
  keyPrefix?: string;
  /** How long to wait for the first connection before giving up (ms). */
  connectTimeoutMs?: number;
  /** How long one check may take before it fails (ms); the caller decides what a failure means. */
  commandTimeoutMs?: number;
}

/**
 * Rate-limit counters in Redis, shared by every API instance pointing at the same server. One
 * round trip per request (EVALSHA; the script is loaded again if the server lost it). The keys
 * of one subject share a hash tag, so the script also runs on a Redis Cluster.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** Connects (failing fast when the server cannot be reached) and returns the store. */
  static async connect(url: string, options: RedisRateLimitStoreOptions = {}): Promise<RedisRateLimitStore> {
    let connected = false;
    const client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: options.connectTimeoutMs ?? 5_000,
      commandTimeout: options.commandTimeoutMs ?? 500,
      // A check must not queue behind a reconnect: it fails at once and the caller carries on.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // The first connection fails fast (a wrong REDIS_URL stops the start); once connected, a
      // lost connection is re-established in the background with a capped back-off.
      retryStrategy: (attempt) => (connected ? Math.min(attempt * 200, 2_000) : null),
    });
    // Without a listener ioredis reports every failed reconnect as an unhandled error event;
    // the caller hears about an outage from the failing checks instead.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      // Without retries the client has ended by itself; disconnecting an ended client would
      // keep the process alive for a while.
      if (client.status !== 'end') client.disconnect();
      throw new Error(`Cannot reach Redis at ${redact(url)}: ${(error as Error).message}`, { cause: error });
    }
    connected = true;
    return new RedisRateLimitStore(client, options.keyPrefix ?? 'ratelimit:');
  }

  async consume(subject: string, policies: readonly RateLimitPolicy[], now: number): Promise<RateLimitDecision> {
    // The bucket width is part of the key: fields are bucket indices, meaningless under another width.
    const keys = policies.map((policy) => `${this.keyPrefix}{${subject}}:${policy.name}:${policy.bucketMs}`);
    const args: (string | number)[] = [Math.floor(now)];
    for (const policy of policies) args.push(policy.limit, policy.windowMs, policy.bucketMs);
    const reply = (await this.run(keys, args)) as number[];
    return {
      allowed: reply[0] === 1,
      retryAfterMs: reply[1],
      states: policies.map((policy, i) => ({ policy, remaining: reply[2 + 2 * i], resetMs: reply[3 + 2 * i] })),
    };
  }

  private async run(keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.client.evalsha(CONSUME_SHA, keys.length, ...keys, ...args);
    } catch (error) {
      // After a restart or SCRIPT FLUSH the server no longer knows the script: send it once more.
      if (!(error as Error).message?.startsWith('NOSCRIPT')) throw error;
      return this.client.eval(CONSUME, keys.length, ...keys, ...args);
    }
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}
