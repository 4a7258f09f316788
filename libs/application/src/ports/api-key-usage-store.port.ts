/**
 * When each API key was last used (the dashboard's "last used"), and how many requests it served
 * each day (the API keys page's chart). Written in batches, at most once a minute per process, by
 * `ApiKeyUsageRecorder`: never on a request's path. The granularity is therefore a minute
 * (docs/dashboard.md).
 * Adapters: SQLite (DATA_DIR/dashboard.db) and MongoDB; both pass
 * test/contract/api-key-usage-store.contract.ts.
 */
export const API_KEY_USAGE_STORE = Symbol('ApiKeyUsageStore');

export const DAY_MS = 86_400_000;

/** The UTC day (its midnight, epoch milliseconds) of a time. */
export const dayOf = (ms: number): number => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);

/**
 * How long a key's requests per day are kept: each flush drops the days older than this before
 * the latest time it records, so the counts stay bounded by keys × days.
 */
export const DAILY_REQUESTS_RETENTION_DAYS = 90;

/** The first UTC day still kept by a flush whose latest time is `latest`. */
export const firstDayKept = (latest: number): number => dayOf(latest) - (DAILY_REQUESTS_RETENTION_DAYS - 1) * DAY_MS;

/** Requests one key served on one UTC day. */
export interface DailyRequests {
  keyId: string;
  /** The day's UTC midnight, epoch milliseconds. */
  day: number;
  requests: number;
}

export interface ApiKeyUsageStore {
  /**
   * Records each key's use at the given epoch milliseconds (a later time never goes back) and,
   * when given, adds each key's requests since the last flush to the UTC day of its time. Days
   * older than DAILY_REQUESTS_RETENTION_DAYS before the latest of these times are dropped.
   */
  record(uses: ReadonlyMap<string, number>, requests?: ReadonlyMap<string, number>): Promise<void>;
  /** The last recorded use of each of these keys that has one. */
  lastUsed(keyIds: readonly string[]): Promise<Map<string, number>>;
  /** Requests per key and UTC day, for these keys from the day `sinceDay` on (days with none are absent). */
  dailyRequests(keyIds: readonly string[], sinceDay: number): Promise<DailyRequests[]>;
  close(): Promise<void>;
}
