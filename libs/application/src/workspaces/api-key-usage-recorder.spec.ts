import { ApiKeyUsageStore } from '../ports/api-key-usage-store.port';
import { ApiKeyUsageRecorder } from './api-key-usage-recorder';

/** A store that records what each flush wrote, and fails while `down`. */
function recordingStore() {
  const flushes: Map<string, number>[] = [];
  const counts: Map<string, number>[] = [];
  const state = { down: false };
  const store: ApiKeyUsageStore = {
    async record(uses, requests) {
      if (state.down) throw new Error('store down');
      flushes.push(new Map(uses));
      counts.push(new Map(requests));
    },
    async dailyRequests() {
      return [];
    },
    async lastUsed(keyIds) {
      const found = new Map<string, number>();
      for (const flush of flushes) for (const [k, at] of flush) if (keyIds.includes(k)) found.set(k, at);
      return found;
    },
    async close() {},
  };
  return { store, flushes, counts, state };
}

describe('ApiKeyUsageRecorder: last use without a write per request', () => {
  let now = 1000;
  const clock = { now: () => now };

  it('writes each key once per flush, however many requests it served, stamped with the flush time', async () => {
    const { store, flushes } = recordingStore();
    const recorder = new ApiKeyUsageRecorder(store, clock);
    for (let i = 0; i < 1000; i++) recorder.note(i % 2 ? 'key_a' : 'key_b');

    expect(flushes).toEqual([]);
    now = 5000;
    await recorder.flush();
    await recorder.flush();

    expect(flushes).toEqual([
      new Map([
        ['key_b', 5000],
        ['key_a', 5000],
      ]),
    ]);
  });

  it('counts the requests of each key between flushes, and keeps the counts of a failed flush', async () => {
    const { store, counts, state } = recordingStore();
    const recorder = new ApiKeyUsageRecorder(store, clock);
    for (let i = 0; i < 5; i++) recorder.note('key_a');
    recorder.note('key_b');
    state.down = true;
    await recorder.flush();
    state.down = false;
    recorder.note('key_a');
    await recorder.flush();
    recorder.note('key_b');
    await recorder.flush();

    expect(counts).toEqual([
      new Map([
        ['key_a', 6],
        ['key_b', 1],
      ]),
      new Map([['key_b', 1]]),
    ]);
  });

  it('keeps the notes of a failed flush for the next one', async () => {
    const { store, flushes, state } = recordingStore();
    const recorder = new ApiKeyUsageRecorder(store, clock);
    recorder.note('key_a');
    state.down = true;
    await recorder.flush();
    state.down = false;
    now = 9000;
    await recorder.flush();

    expect(flushes).toEqual([new Map([['key_a', 9000]])]);
  });

  it("answers each key's requests per day with those counted and not flushed yet on today's", async () => {
    const day = Date.UTC(2026, 10, 2);
    now = day + 5000;
    const store: ApiKeyUsageStore = {
      ...recordingStore().store,
      async dailyRequests() {
        return [
          { keyId: 'key_a', day: day - 86_400_000, requests: 4 },
          { keyId: 'key_a', day, requests: 1 },
        ];
      },
    };
    const recorder = new ApiKeyUsageRecorder(store, clock);
    recorder.note('key_a');
    recorder.note('key_b');
    recorder.note('key_b');
    expect(await recorder.dailyRequests(['key_a', 'key_b'], day - 86_400_000)).toEqual([
      { keyId: 'key_a', day: day - 86_400_000, requests: 4 },
      { keyId: 'key_a', day, requests: 2 },
      { keyId: 'key_b', day, requests: 2 },
    ]);
  });

  it('answers with notes not flushed yet as used now', async () => {
    const { store } = recordingStore();
    const recorder = new ApiKeyUsageRecorder(store, clock);
    recorder.note('key_a');
    now = 7000;

    expect(await recorder.lastUsed(['key_a', 'key_b'])).toEqual(new Map([['key_a', 7000]]));
  });
});
