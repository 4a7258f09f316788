import { dropOldest } from './drop-oldest';

describe('dropOldest: a cache bounded by insertion order', () => {
  const mapOf = (count: number, from = 0) => new Map(Array.from({ length: count }, (_, i) => [`k${from + i}`, i]));

  it('leaves a collection at or under its bound as it is', () => {
    const entries = mapOf(64);
    dropOldest(entries, 64);
    expect([...entries.keys()]).toEqual([...mapOf(64).keys()]);
  });

  it('drops the oldest first, a sixteenth of the bound beyond it in one go', () => {
    const entries = mapOf(65);
    dropOldest(entries, 64);
    // 1 over the bound, plus 64 / 16 = 4 more: the 60 newest stay, in their order.
    expect([...entries.keys()]).toEqual([...mapOf(60, 5).keys()]);
  });

  it('keeps a small bound exactly, one out for one in', () => {
    const entries = new Set(['a', 'b', 'c']);
    entries.add('d');
    dropOldest(entries, 3);
    expect([...entries]).toEqual(['b', 'c', 'd']);
  });

  it('counts a re-inserted key as new: it goes last', () => {
    const entries = mapOf(16);
    entries.delete('k0');
    entries.set('k0', 0);
    entries.set('k16', 16);
    dropOldest(entries, 16);
    // 1 over the bound, plus 16 / 16 = 1 more: k1 and k2, the oldest now, go.
    expect([...entries.keys()]).toEqual([...mapOf(13, 3).keys(), 'k0', 'k16']);
  });

  it('holds at most the bound, and the newest, however many pass through', () => {
    const entries = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      entries.delete(`k${i % 7_000}`);
      entries.set(`k${i % 7_000}`, i);
      dropOldest(entries, 500);
      expect(entries.size).toBeLessThanOrEqual(500);
    }
    const kept = [...entries.values()];
    expect(Math.min(...kept)).toBeGreaterThan(10_000 - 500 - 500 / 16 - 1);
    expect(kept).toContain(9_999);
  });
});
