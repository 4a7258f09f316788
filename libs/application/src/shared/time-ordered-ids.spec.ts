import { newEventId, randomBase62, timeBase62, timeOrderedIdGenerator, timeOrderedIds } from './time-ordered-ids';

describe('timeOrderedIds', () => {
  it('makes prefixed ids of 20 base62 characters, all different, across many refills of the random pool', () => {
    const ids = Array.from({ length: 10_000 }, () => timeOrderedIds.next('prj')); // ~30 refills of 4 KB
    for (const id of ids) expect(id).toMatch(/^prj_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts ids made in a later millisecond after those made earlier, whatever their random part', () => {
    let now = 1_795_000_000_000;
    const ids = timeOrderedIdGenerator(() => now);
    const made: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      made.push(ids.next('job'));
      now += 1 + (i % 7) * 997; // steps of 1 ms up to about 6 s, across carries of every digit
    }
    expect([...made].sort()).toEqual(made);
  });

  it('writes the time zero-padded, so that it sorts as the number does', () => {
    expect(timeBase62(0)).toBe('0000000');
    expect(timeBase62(61)).toBe('000000z');
    expect(timeBase62(62)).toBe('0000010');
    const times = [9, 61, 62, 3_843, 3_844, 1_795_000_000_000, 62 ** 7 - 1];
    const texts = times.map(timeBase62);
    expect([...texts].sort()).toEqual(texts);
    for (const text of texts) expect(text).toHaveLength(7);
  });

  it('draws every character about equally often', () => {
    const counts = new Map<string, number>();
    const text = randomBase62(62 * 2000);
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2,000 expected each (σ ≈ 44); modulo without rejection would draw 0-7 about 2,420 times.
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(300);
  });

  it('keeps 13 random characters after the time: ids of one millisecond differ there', () => {
    const ids = timeOrderedIdGenerator(() => 1_795_000_000_000);
    const made = Array.from({ length: 1_000 }, () => ids.next('prj'));
    expect(new Set(made.map((id) => id.slice(4, 11))).size).toBe(1);
    expect(new Set(made.map((id) => id.slice(11))).size).toBe(made.length);
  });

  it('derives the same id from the same seed and another from another', () => {
    expect(timeOrderedIds.derive('prj', 'a')).toBe(timeOrderedIds.derive('prj', 'a'));
    expect(timeOrderedIds.derive('prj', 'a')).not.toBe(timeOrderedIds.derive('prj', 'b'));
  });
});

describe('newEventId', () => {
  it('is a version 7 UUID, and later ids sort after earlier ones', () => {
    const ids = Array.from({ length: 5_000 }, () => newEventId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
