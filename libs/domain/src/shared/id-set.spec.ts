import { IdSet } from './id-set';

/** A deterministic sequence of pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('IdSet', () => {
  it('adds and deletes as a Set does, whatever the order, and leaves earlier versions untouched', () => {
    const next = random(7);
    const expected = new Set<string>();
    let set = IdSet.empty;
    const versions: [IdSet, string[]][] = [];
    for (let i = 0; i < 5_000; i++) {
      const id = `prj_${Math.floor(next() * 800)}`;
      if (next() < 0.6) {
        set = set.add(id);
        expected.add(id);
      } else {
        set = set.delete(id);
        expected.delete(id);
      }
      if (i % 500 === 0) versions.push([set, [...expected].sort()]);
    }
    expect(set.size).toBe(expected.size);
    expect(set.values()).toEqual([...expected].sort());
    for (const id of ['prj_1', 'prj_2', 'prj_799', 'nope']) expect(set.has(id)).toBe(expected.has(id));
    for (const [version, ids] of versions) expect(version.values()).toEqual(ids);
  });

  it('is the same value however it was reached: grown and shrunk, or built from its ids', () => {
    let set = IdSet.empty;
    for (let i = 0; i < 300; i++) set = set.add(`p${i}`);
    for (let i = 10; i < 300; i++) set = set.delete(`p${i}`);
    expect(set).toEqual(IdSet.of(Array.from({ length: 10 }, (_, i) => `p${i}`)));
    expect(set.delete('p0').delete('p1').add('p0').add('p1')).toEqual(set);
  });

  it('answers itself when nothing changes', () => {
    const set = IdSet.of(['a', 'b']);
    expect(set.add('a')).toBe(set);
    expect(set.delete('z')).toBe(set);
    expect(IdSet.of(['a', 'a']).size).toBe(1);
  });
});
