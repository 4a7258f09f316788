/**
 * When the next attempt of a delivery is due. `schedule[i]` is the delay before attempt i + 1, so
 * after `attemptsInRound` failed attempts the next waits `schedule[attemptsInRound]`, and there is
 * none once the schedule is used up.
 */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export function jittered(delayMs: number, jitterRatio: number, random: () => number = Math.random): number {
  if (delayMs <= 0 || jitterRatio <= 0) return Math.max(0, delayMs);
  return Math.round(delayMs * (1 - jitterRatio + 2 * jitterRatio * random()));
}

/**
 * The delay before the next attempt, or null when the delivery has used its schedule. A
 * `Retry-After` (honoured on 429 and 503) only ever postpones: the receiver asked not to be called
 * before then, and the schedule's own delay still applies when it is longer.
 */
export function nextRetryDelay(
  schedule: readonly number[],
  attemptsInRound: number,
  options: { retryAfterMs?: number | null; jitterRatio: number; random?: () => number },
): number | null {
  if (attemptsInRound >= schedule.length) return null;
  const delay = jittered(schedule[attemptsInRound], options.jitterRatio, options.random);
  return Math.max(delay, Math.min(options.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}

/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
