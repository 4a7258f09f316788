/** How webhook deliveries behave; bound by the composition root from the runtime configuration. */
export const WEBHOOK_SETTINGS = Symbol('WebhookSettings');

export interface WebhookSettings {
  /** Delay before each attempt of a delivery (the first is usually 0); its length is the attempt budget. */
  retryDelaysMs: readonly number[];
  /** Consecutive failed attempts after which a subscription is paused. */
  pauseAfterFailures: number;
  /** Development and tests only: lets deliveries go to loopback and private addresses. */
  allowPrivateTargets: boolean;
  /** Whole-request deadline of one attempt (connect, TLS, response head and body). */
  requestTimeoutMs: number;
  /** Every delay is multiplied by a random factor in [1 - jitter, 1 + jitter]. */
  jitterRatio: number;
  /** Attempts one process keeps in flight at once. */
  concurrency: number;
  /** Settled deliveries and their attempts are kept this long. */
  retentionMs: number;
}

export const WEBHOOK_DEFAULTS = {
  /** Standard Webhooks recommends 15 to 30 s. */
  requestTimeoutMs: 15_000,
  jitterRatio: 0.1,
  concurrency: 64,
  retentionMs: 30 * 24 * 60 * 60 * 1000,
} as const;
