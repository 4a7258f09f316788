import { LoadedState, StateCache } from './state-cache';

const at = (revision: number): LoadedState => ({
  revision,
  state: { revision },
  lastEventId: `e${revision}`,
  snapshotRevision: -1,
});

describe('StateCache', () => {
  it('holds the newest state remembered for a stream', () => {
    const cache = new StateCache(10);

    cache.remember('s-1', at(0));
    cache.remember('s-1', at(3));

    expect(cache.get('s-1')).toEqual(at(3));
    expect(cache.get('s-2')).toBeUndefined();
  });

  it('lets the least recently remembered streams go first once full', () => {
    const cache = new StateCache(16);
    for (let i = 0; i < 16; i++) cache.remember(`s-${i}`, at(i));

    cache.remember('s-0', at(100)); // used again: the most recent now
    cache.remember('s-16', at(16));

    expect(cache.get('s-0')).toEqual(at(100));
    expect(cache.get('s-1')).toBeUndefined();
    expect(cache.get('s-16')).toEqual(at(16));
  });
});
