import { ApiKeyUsageStore, DAY_MS } from '../../ports/api-key-usage-store.port';
import { ApiKeyUsageRecorder } from '../api-key-usage-recorder';
import { ApiKeyDailyRequestsHandler } from './api-key-daily-requests.handler';
import { ApiKeyDailyRequestsQuery } from './api-key-daily-requests.query';

describe('ApiKeyDailyRequestsHandler', () => {
  it("answers each key's requests on every day of the window, today last, 0 where none", async () => {
    const today = Date.UTC(2026, 10, 28);
    const clock = { now: () => today + 3_600_000 };
    const asked: unknown[] = [];
    const store = {
      async dailyRequests(keyIds: readonly string[], sinceDay: number) {
        asked.push([keyIds, sinceDay]);
        return [
          { keyId: 'key_a', day: today - 2 * DAY_MS, requests: 3 },
          { keyId: 'key_a', day: today, requests: 1 },
          { keyId: 'key_b', day: today - DAY_MS, requests: 9 },
        ];
      },
    } as unknown as ApiKeyUsageStore;
    const handler = new ApiKeyDailyRequestsHandler(new ApiKeyUsageRecorder(store, clock), clock);

    const answer = await handler.execute(new ApiKeyDailyRequestsQuery(['key_a', 'key_b', 'key_c'], 3));
    expect(asked).toEqual([[['key_a', 'key_b', 'key_c'], today - 2 * DAY_MS]]);
    expect(answer.days).toEqual([today - 2 * DAY_MS, today - DAY_MS, today]);
    expect(answer.requests).toEqual(
      new Map([
        ['key_a', [3, 0, 1]],
        ['key_b', [0, 9, 0]],
        ['key_c', [0, 0, 0]],
      ]),
    );
  });
});
