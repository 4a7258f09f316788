import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { Decider, DomainError, DomainEvent, OPERATOR } from '@app/domain';
import { SqliteEventStore } from '@app/infrastructure/sqlite';
import { EventStore } from '../ports/event-store.port';
import { CommandContext } from './command-context';
import { EventSourcedRepository } from './event-sourced-repository';

/** Creates once: a second create on the same stream decides nothing. */
const thing: Decider<{ created: boolean }, 'create', DomainEvent> = {
  initialState: () => ({ created: false }),
  evolve: () => ({ created: true }),
  decide: (_command, state) => (state.created ? [] : [{ type: 'thing.created', data: {} }]),
};

/** Appends on every command. */
const ticks: Decider<{ count: number }, 'tick', DomainEvent> = {
  initialState: () => ({ count: 0 }),
  evolve: (state) => ({ count: state.count + 1 }),
  decide: () => [{ type: 'thing.ticked', data: {} }],
};

const context: CommandContext = { actor: OPERATOR, workspaceId: 'ws_1', requestId: 'req_1', causationId: 'req_1' };
const shown = { waitFor: async () => true };

/** `store` with one method replaced; every other member is the store's own. */
function replacing<K extends keyof EventStore>(store: EventStore, method: K, replacement: EventStore[K]): EventStore {
  return new Proxy(store, {
    get: (target, name) => (name === method ? replacement : Reflect.get(target, name, target)),
  });
}

/** An embedded store in a scratch folder, fresh for each test of the describe that calls this. */
function scratchStore(): () => SqliteEventStore {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-repo-'));
    store = new SqliteEventStore(join(dir, 'events.db'), { writer: 'inline' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => store;
}

/** A scratch store, and the same store counting the stream reads made through it (`counted`). */
function countingStore(): { store: SqliteEventStore; counted: EventStore; reads: string[] } {
  const scratch = scratchStore();
  const stores = { reads: [] as string[] } as { store: SqliteEventStore; counted: EventStore; reads: string[] };
  beforeEach(() => {
    stores.store = scratch();
    stores.reads = [];
    stores.counted = replacing(stores.store, 'readStream', (streamId, options) => {
      stores.reads.push(streamId);
      return stores.store.readStream(streamId, options);
    });
  });
  return stores;
}

describe('EventSourcedRepository: newStream (a stream whose id was just generated)', () => {
  const stores = countingStore();

  const create = (repository: EventSourcedRepository, streamId: string, newStream: boolean) =>
    repository.transact(streamId, context, (unit) => unit.decide(thing, streamId, 'create', { newStream }));

  it('decides a new stream without reading it, and appends it as no_stream', async () => {
    const repository = new EventSourcedRepository(stores.counted, { now: () => 1 }, shown);
    const { result } = await create(repository, 'thing-new', true);
    expect(result.events.map((e) => e.type)).toEqual(['thing.created']);
    expect(result.revision).toBe(0);
    expect(stores.reads).toEqual([]);
    expect((await stores.store.readStream('thing-new')).map((e) => [e.type, e.revision])).toEqual([
      ['thing.created', 0],
    ]);
    // Without the option the stream is read as usual.
    await create(repository, 'thing-other', false);
    expect(stores.reads).toEqual(['thing-other']);
  });

  it('still decides on the real stream when the id turns out to exist: the append conflicts and the retry reads it', async () => {
    await create(new EventSourcedRepository(stores.store, { now: () => 1 }, shown), 'thing-taken', false);
    // Another repository (another process): nothing of the stream in its cache.
    const repository = new EventSourcedRepository(stores.counted, { now: () => 2 }, shown);
    const { result, position } = await create(repository, 'thing-taken', true);
    expect(result.events).toEqual([]);
    expect(position).toBe(0);
    expect(stores.reads).toContain('thing-taken');
    expect((await stores.store.readStream('thing-taken')).map((e) => e.revision)).toEqual([0]);
  });
});

describe('EventSourcedRepository: settled (what a shutdown waits for before closing the store)', () => {
  const scratch = scratchStore();
  let store: SqliteEventStore;
  let held: Array<() => void>;
  let holding: EventStore;
  beforeEach(() => {
    store = scratch();
    held = [];
    // The same store, each append held until released (a write in flight).
    holding = replacing(store, 'appendToStreams', (appends) =>
      new Promise<void>((release) => held.push(release)).then(() => store.appendToStreams(appends)),
    );
  });

  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await setImmediate();
  };

  it('resolves at once with nothing queued', async () => {
    await expect(new EventSourcedRepository(holding, { now: () => 1 }, shown).settled()).resolves.toBeUndefined();
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
    expect((await store.readStream('thing-a')).map((e) => e.type)).toEqual(['thing.ticked', 'thing.ticked']);
    await second;
  });
});

describe('EventSourcedRepository: batches', () => {
  const scratch = scratchStore();

  it('decides the commands of one turn of the event loop as one batch, written in one append', async () => {
    const store = scratch();
    const appends: string[][] = [];
    const counting = replacing(store, 'appendToStreams', (batch) => {
      appends.push(batch.map((a) => `${a.streamId}+${a.events.length}`));
      return store.appendToStreams(batch);
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
    const store = scratch();
    const waits: string[] = [];
    const readModels = {
      waitFor: async (_position: number, scope: { streamId?: string }) => {
        waits.push(scope.streamId ?? '?');
        return true;
      },
    };
    const repository = new EventSourcedRepository(store, { now: () => 1 }, readModels);
    const create = (streamId: string) =>
      repository.transact('things', context, (unit) => unit.decide(thing, streamId, 'create'));
    await create('thing-old');
    waits.length = 0;
    // One queue, one batch, one append: three creates, one of which creates nothing.
    const results = await Promise.all([create('thing-1'), create('thing-2'), create('thing-old')]);
    expect(results.map((r) => r.written)).toEqual([['thing-1'], ['thing-2'], []]);
    expect(results[0].position).toBeGreaterThan(0);
    expect(results[2].position).toBe(0);
    // Two waits in all, where each command waiting on every stream of the batch made six.
    expect(waits.sort()).toEqual(['thing-1', 'thing-2']);
  });
});

/** A value that only changes when a command sets a different one; `lock`ed, it refuses changes. */
type Setting = { value: string; locked: boolean };
const setting: Decider<Setting, string, DomainEvent> = {
  initialState: () => ({ value: '', locked: false }),
  evolve: (state, event) =>
    event.type === 'setting.locked'
      ? { ...state, locked: true }
      : event.type === 'setting.unlocked'
        ? { ...state, locked: false }
        : { ...state, value: (event.data as { value: string }).value },
  decide: (command, state) => {
    if (command === 'lock') return [{ type: 'setting.locked', data: {} }];
    if (command === 'unlock') return [{ type: 'setting.unlocked', data: {} }];
    if (state.locked) throw new DomainError('conflict', 'The setting is locked');
    return state.value === command ? [] : [{ type: 'setting.set', data: { value: command } }];
  },
};

describe('EventSourcedRepository: states held in memory are decided on without reading them', () => {
  const stores = countingStore();
  let here: EventSourcedRepository;
  /** Another process on the same store: its appends reach the store, never `here`'s states. */
  let there: EventSourcedRepository;
  beforeEach(() => {
    here = new EventSourcedRepository(stores.counted, { now: () => 1 }, shown);
    there = new EventSourcedRepository(stores.store, { now: () => 2 }, shown);
  });

  const set = (repository: EventSourcedRepository, command: string, streamId = 'setting-1') =>
    repository.transact(streamId, context, (unit) => unit.decide(setting, streamId, command));
  const values = async (streamId = 'setting-1') =>
    (await stores.store.readStream(streamId)).map((e) =>
      e.type === 'setting.set' ? (e.data as { value: string }).value : e.type,
    );

  it('a write on a held state reads nothing: the append checks the revision it was decided on', async () => {
    await set(here, 'a');
    stores.reads.length = 0;
    const { result } = await set(here, 'b');
    expect(result.revision).toBe(1);
    expect(stores.reads).toEqual([]);
    // A stream only looked at is checked by the write, not read either.
    await here.transact('setting-2', context, async (unit) => {
      await unit.load(setting, 'setting-1');
      return unit.decide(setting, 'setting-2', 'x');
    });
    stores.reads.length = 0;
    await here.transact('setting-2', context, async (unit) => {
      await unit.load(setting, 'setting-1');
      return unit.decide(setting, 'setting-2', 'y');
    });
    expect(stores.reads).toEqual([]);
  });

  it('another process moved the stream: the append conflicts, and the retry decides on what it wrote', async () => {
    await set(here, 'a');
    await set(there, 'b');
    const { result } = await set(here, 'c');
    expect(result.revision).toBe(2);
    expect(await values()).toEqual(['a', 'b', 'c']);
  });

  it('another process moved a stream that was only looked at: the write conflicts on its check and is decided again', async () => {
    await set(here, 'open', 'setting-gate');
    await set(there, 'lock', 'setting-gate');
    // Writes setting-2 only if the gate, looked at, is not locked: it is now, whatever `here` held.
    const writeBehindGate = () =>
      here.transact('setting-2', context, async (unit) => {
        const { state } = await unit.load(setting, 'setting-gate');
        if (state.locked) throw new DomainError('conflict', 'The gate is locked');
        return unit.decide(setting, 'setting-2', 'through');
      });
    await expect(writeBehindGate()).rejects.toThrow('The gate is locked');
    expect(await values('setting-2')).toEqual([]);
  });

  it('a command that writes nothing is answered on a state read again, not on a stale one', async () => {
    await set(here, 'a');
    await set(there, 'b');
    stores.reads.length = 0;
    // Held, the state says 'a' (nothing to write); in the store it is 'b', so 'a' is written.
    const { result, position } = await set(here, 'a');
    expect(result.events).toHaveLength(1);
    expect(position).toBeGreaterThan(0);
    expect(await values()).toEqual(['a', 'b', 'a']);
    // A no-op on a state that is current costs one read of at most one event, and writes nothing.
    stores.reads.length = 0;
    const { result: noop } = await set(here, 'a');
    expect(noop.events).toEqual([]);
    expect(stores.reads).toEqual(['setting-1']);
  });

  it('a command refused on a held state is decided again on the current one before the refusal is answered', async () => {
    await set(here, 'lock');
    await set(there, 'unlock');
    const { result } = await set(here, 'b');
    expect(result.events.map((e) => e.type)).toEqual(['setting.set']);
    expect(await values()).toEqual(['setting.locked', 'setting.unlocked', 'b']);
    // Refused on a current state: refused, after one read that finds nothing newer.
    await set(there, 'lock');
    await expect(set(here, 'c')).rejects.toThrow('The setting is locked');
    await expect(set(here, 'c')).rejects.toThrow('The setting is locked');
  });

  it('a store that cannot be read to confirm a held state fails the command, which is not answered on it', async () => {
    await set(here, 'a');
    await set(there, 'b');
    const failing = new EventSourcedRepository(
      replacing(stores.store, 'readStream', async () => {
        throw new Error('disk gone');
      }),
      { now: () => 3 },
      shown,
    );
    // `failing` holds the state of a stream it created (nothing read), which another process then moves.
    await failing.transact('setting-new', context, (unit) =>
      unit.decide(setting, 'setting-new', 'a', { newStream: true }),
    );
    await set(there, 'b', 'setting-new');
    await expect(set(failing, 'a', 'setting-new')).rejects.toThrow('disk gone');
    expect(await values('setting-new')).toEqual(['a', 'b']);
  });
});
