import type { HostResolver } from '@app/application/ports';
import { CachedHostResolver } from './cached-host-resolver';

describe('CachedHostResolver', () => {
  let now = 0;
  let lookups: string[];
  let table: Record<string, string[]>;
  let release: (() => void) | null;
  const inner: HostResolver = {
    resolve: async (host) => {
      lookups.push(host);
      if (release === null) return table[host] ?? [];
      await new Promise<void>((resolve) => (release = resolve));
      return table[host] ?? [];
    },
  };
  beforeEach(() => {
    now = 1_000;
    lookups = [];
    table = { 'hooks.example': ['93.184.215.14'] };
    release = null;
  });

  it('answers from memory until the TTL ends, then asks again (and sees a change)', async () => {
    const resolver = new CachedHostResolver(inner, 1_000, 10, () => now);
    expect(await resolver.resolve('hooks.example', 100)).toEqual(['93.184.215.14']);
    now += 999;
    expect(await resolver.resolve('HOOKS.example', 100)).toEqual(['93.184.215.14']);
    expect(lookups).toEqual(['hooks.example']);
    table['hooks.example'] = ['10.0.0.7']; // rebinding: the caller's check sees it once the TTL is over
    now += 1;
    expect(await resolver.resolve('hooks.example', 100)).toEqual(['10.0.0.7']);
    expect(lookups).toHaveLength(2);
  });

  it('shares one look-up between concurrent callers', async () => {
    release = () => undefined;
    const resolver = new CachedHostResolver(inner, 1_000, 10, () => now);
    const answers = Promise.all([1, 2, 3].map(() => resolver.resolve('hooks.example', 100)));
    await new Promise((r) => setImmediate(r));
    release!();
    expect(await answers).toEqual([['93.184.215.14'], ['93.184.215.14'], ['93.184.215.14']]);
    expect(lookups).toEqual(['hooks.example']);
  });

  it('does not remember a name that does not resolve, nor anything with a TTL of 0', async () => {
    const resolver = new CachedHostResolver(inner, 1_000, 10, () => now);
    expect(await resolver.resolve('later.example', 100)).toEqual([]);
    table['later.example'] = ['93.184.215.15'];
    expect(await resolver.resolve('later.example', 100)).toEqual(['93.184.215.15']);
    const uncached = new CachedHostResolver(inner, 0, 10, () => now);
    await uncached.resolve('hooks.example', 100);
    await uncached.resolve('hooks.example', 100);
    expect(lookups.filter((h) => h === 'hooks.example')).toHaveLength(2);
  });

  it('keeps at most maxEntries names', async () => {
    const resolver = new CachedHostResolver(inner, 60_000, 2, () => now);
    for (const host of ['a.example', 'b.example', 'c.example']) {
      table[host] = ['93.184.215.16'];
      await resolver.resolve(host, 100);
    }
    await resolver.resolve('a.example', 100); // the oldest went
    await resolver.resolve('c.example', 100);
    expect(lookups).toEqual(['a.example', 'b.example', 'c.example', 'a.example']);
  });
});
