import { setImmediate } from 'node:timers/promises';
import { PerKeyBatches } from './per-key-batches';

/** Batches whose handling is held until the test releases it (a write in flight). */
function heldBatches() {
  const handled: string[][] = [];
  const held: Array<() => void> = [];
  const batches = new PerKeyBatches<string>((batch) => {
    handled.push(batch);
    return new Promise<void>((release) => held.push(release));
  });
  const releaseNext = () => held.shift()!();
  return { batches, handled, held, releaseNext };
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await setImmediate();
};

describe('PerKeyBatches', () => {
  it('hands over what is queued on a key in one turn of the event loop as one batch, after that turn', async () => {
    const { batches, handled } = heldBatches();

    batches.add('k', 'a');
    batches.add('k', 'b');
    batches.add('k', 'c');
    expect(handled).toEqual([]);
    await turns(1);

    expect(handled).toEqual([['a', 'b', 'c']]);
  });

  it("queues what arrives while a key's batch is handled, and hands it over as the next batch once that one ends", async () => {
    const { batches, handled, releaseNext } = heldBatches();
    batches.add('k', 'a');
    await turns(1);

    batches.add('k', 'b');
    batches.add('k', 'c');
    await turns(3);
    expect(handled).toEqual([['a']]);
    releaseNext();
    await turns(3);

    expect(handled).toEqual([['a'], ['b', 'c']]);
  });

  it('handles different keys side by side', async () => {
    const { batches, handled } = heldBatches();

    batches.add('k', 'a');
    batches.add('other', 'x');
    await turns(1);

    expect(handled).toEqual([['a'], ['x']]);
  });

  it('settled: resolves at once with nothing queued', async () => {
    await expect(heldBatches().batches.settled()).resolves.toBeUndefined();
  });

  it('settled: waits for the batches in flight and for those queued behind them', async () => {
    const { batches, handled, held, releaseNext } = heldBatches();
    batches.add('k', 'a');
    batches.add('other', 'x');
    await turns(1);
    batches.add('k', 'b');
    let settled = false;
    const settling = batches.settled().then(() => (settled = true));

    releaseNext();
    releaseNext();
    await turns(3);
    expect(handled).toEqual([['a'], ['x'], ['b']]);
    expect(settled).toBe(false);
    expect(held).toHaveLength(1);
    releaseNext();
    await settling;

    expect(settled).toBe(true);
  });
});
