import { jittered, MAX_RETRY_AFTER_MS, nextRetryDelay, parseRetryAfter } from './retry-policy';

describe('webhook retry policy', () => {
  const schedule = [0, 5_000, 300_000];

  it('follows the schedule and stops when it is used up', () => {
    const exact = { jitterRatio: 0 };
    expect(nextRetryDelay(schedule, 1, exact)).toBe(5_000);
    expect(nextRetryDelay(schedule, 2, exact)).toBe(300_000);
    expect(nextRetryDelay(schedule, 3, exact)).toBeNull();
  });

  it('jitters within the ratio, and never the immediate attempt', () => {
    expect(jittered(1000, 0.1, () => 0)).toBe(900);
    expect(jittered(1000, 0.1, () => 0.999999)).toBe(1100);
    expect(jittered(0, 0.1, () => 1)).toBe(0);
    for (let i = 0; i < 100; i++) {
      const delay = nextRetryDelay(schedule, 1, { jitterRatio: 0.1 })!;
      expect(delay).toBeGreaterThanOrEqual(4_500);
      expect(delay).toBeLessThanOrEqual(5_500);
    }
  });

  it('lets Retry-After postpone, never hasten, and caps it', () => {
    expect(nextRetryDelay(schedule, 1, { jitterRatio: 0, retryAfterMs: 60_000 })).toBe(60_000);
    expect(nextRetryDelay(schedule, 1, { jitterRatio: 0, retryAfterMs: 1_000 })).toBe(5_000);
    expect(nextRetryDelay(schedule, 1, { jitterRatio: 0, retryAfterMs: 10 * MAX_RETRY_AFTER_MS })).toBe(
      MAX_RETRY_AFTER_MS,
    );
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
