import { setImmediate } from 'node:timers/promises';
import { EventStore } from '../ports/event-store.port';
import { EventSourcedRepository } from './event-sourced-repository';
import { context, replacing, scratchStore, thing, ticks } from './scratch-store.spec-helper';

const shown = { waitFor: async () => true };
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await setImmediate();
};

describe('EventSourcedRepository: commands', () => {
  const stores = scratchStore();

  it('decides the commands of one turn of the event loop as one batch, written in one append', async () => {
    const appends: string[][] = [];
    const counting = replacing(stores.store, 'appendToStreams', (batch) => {
      appends.push(batch.map((a) => `${a.streamId}+${a.events.length}`));
      return stores.store.appendToStreams(batch);
    });
    const repository = new EventSourcedRepository(counting, { now: () => 1 }, shown);
    let decided = 0;
    const tick = (streamId: string) =>
      repository.transact(streamId, context, (unit) => {
        decided++;
        return unit.decide(ticks, streamId, 'tick');
      });

    // The first command does not start a batch of its own at once: the two that follow it in the
    // same turn (as requests read in one poll would) join it.
    const ticking = [tick('thing-a'), tick('thing-a'), tick('thing-a')];
    expect(decided).toBe(0);
    const results = await Promise.all(ticking);

    expect(appends).toEqual([['thing-a+3']]);
    expect(results.map((r) => r.result.revision)).toEqual([0, 1, 2]);
  });

  it("answers each command of a batch once the read models show its own streams, not the batch's others", async () => {
    const waits: string[] = [];
    const readModels = {
      waitFor: async (_position: number, scope: { streamId?: string }) => {
        waits.push(scope.streamId ?? '?');
        return true;
      },
    };
    const repository = new EventSourcedRepository(stores.store, { now: () => 1 }, readModels);
    const create = (streamId: string) =>
      repository.transact('things', context, (unit) => unit.decide(thing, streamId, 'create'));
    await create('thing-old');
    waits.length = 0;

    // One queue, one batch, one append: three creates, one of which creates nothing.
    const results = await Promise.all([create('thing-1'), create('thing-2'), create('thing-old')]);

    expect(results.map((r) => r.written)).toEqual([['thing-1'], ['thing-2'], []]);
    expect(results.map((r) => r.visible)).toEqual([true, true, true]);
    expect(results[0].position).toBeGreaterThan(0);
    expect(results[2].position).toBe(0);
    // Two waits in all, where each command waiting on every stream of the batch made six.
    expect(waits.sort()).toEqual(['thing-1', 'thing-2']);
  });

  it('execute: a command that changes nothing is answered as shown, at position 0, at the current revision', async () => {
    const repository = new EventSourcedRepository(stores.store, { now: () => 1 }, { waitFor: async () => false });
    await repository.execute(thing, 'thing-1', 'create', context, { waitForReadModels: false });

    const outcome = await repository.execute(thing, 'thing-1', 'create', context);

    expect(outcome).toMatchObject({ events: [], revision: 0, position: 0, visible: true, state: { created: true } });
  });
});

describe('EventSourcedRepository: settled (what a shutdown waits for before closing the store)', () => {
  const stores = scratchStore();
  let held: Array<() => void>;
  let holding: EventStore;
  beforeEach(() => {
    held = [];
    // The same store, each append held until released (a write in flight).
    holding = replacing(stores.store, 'appendToStreams', (appends) =>
      new Promise<void>((release) => held.push(release)).then(() => stores.store.appendToStreams(appends)),
    );
  });

  it('waits for the writes in flight and for the batches queued behind them', async () => {
    const repository = new EventSourcedRepository(holding, { now: () => 1 }, shown);
    const tick = (streamId: string) =>
      repository.transact(streamId, context, (unit) => unit.decide(ticks, streamId, 'tick'));
    const first = tick('thing-a');
    await turns(3);
    // Queued behind the first append: the next batch, started when the first ends.
    const second = tick('thing-a');
    const other = tick('thing-b');
    let settled = false;
    const settling = repository.settled().then(() => (settled = true));

    await turns(3);
    expect(held).toHaveLength(2); // thing-a's first batch and thing-b's
    held.shift()!();
    held.shift()!();
    await Promise.all([first, other]);
    await turns(3);
    expect(held).toHaveLength(1); // thing-a's second batch, writing
    expect(settled).toBe(false);
    held.shift()!();
    await settling;

    expect((await stores.store.readStream('thing-a')).map((e) => e.type)).toEqual(['thing.ticked', 'thing.ticked']);
    await second;
  });
});
