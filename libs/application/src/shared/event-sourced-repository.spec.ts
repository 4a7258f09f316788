import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { Decider, DomainEvent, OPERATOR } from '@app/domain';
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

describe('EventSourcedRepository: newStream (a stream whose id was just generated)', () => {
  const scratch = scratchStore();
  let store: SqliteEventStore;
  let reads: string[];
  let counted: EventStore;
  beforeEach(() => {
    store = scratch();
    reads = [];
    // The same store, counting the stream reads the repository makes.
    counted = replacing(store, 'readStream', (streamId, options) => {
      reads.push(streamId);
      return store.readStream(streamId, options);
    });
  });

  const create = (repository: EventSourcedRepository, streamId: string, newStream: boolean) =>
    repository.transact(streamId, context, (unit) => unit.decide(thing, streamId, 'create', { newStream }));

  it('decides a new stream without reading it, and appends it as no_stream', async () => {
    const repository = new EventSourcedRepository(counted, { now: () => 1 }, shown);
    const { result } = await create(repository, 'thing-new', true);
    expect(result.events.map((e) => e.type)).toEqual(['thing.created']);
    expect(result.revision).toBe(0);
    expect(reads).toEqual([]);
    expect((await store.readStream('thing-new')).map((e) => [e.type, e.revision])).toEqual([['thing.created', 0]]);
    // Without the option the stream is read as usual.
    await create(repository, 'thing-other', false);
    expect(reads).toEqual(['thing-other']);
  });

  it('still decides on the real stream when the id turns out to exist: the append conflicts and the retry reads it', async () => {
    await create(new EventSourcedRepository(store, { now: () => 1 }, shown), 'thing-taken', false);
    // Another repository (another process): nothing of the stream in its cache.
    const repository = new EventSourcedRepository(counted, { now: () => 2 }, shown);
    const { result, position } = await create(repository, 'thing-taken', true);
    expect(result.events).toEqual([]);
    expect(position).toBe(0);
    expect(reads).toContain('thing-taken');
    expect((await store.readStream('thing-taken')).map((e) => e.revision)).toEqual([0]);
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
