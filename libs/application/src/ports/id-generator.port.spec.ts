import { randomBase62, randomIds } from './id-generator.port';

describe('randomIds', () => {
  it('makes prefixed ids of 20 base62 characters, all different, across many refills of the random pool', () => {
    const ids = Array.from({ length: 10_000 }, () => randomIds.next('prj')); // ~50 refills of 4 KB
    for (const id of ids) expect(id).toMatch(/^prj_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws every character about equally often', () => {
    const counts = new Map<string, number>();
    const text = randomBase62(62 * 2000);
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2,000 expected each (σ ≈ 44); modulo without rejection would draw 0-7 about 2,420 times.
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(300);
  });

  it('derives the same id from the same seed and another from another', () => {
    expect(randomIds.derive('prj', 'a')).toBe(randomIds.derive('prj', 'a'));
    expect(randomIds.derive('prj', 'a')).not.toBe(randomIds.derive('prj', 'b'));
  });
});
