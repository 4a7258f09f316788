import { DomainError } from '@app/domain';
import { EventStore, WrongExpectedRevisionError } from '../ports/event-store.port';
import { CommandSide, Decided, decideAndAppend, PendingUnit } from './decide-and-append';
import { context, replacing, scratchStore, setting, thing, ticks } from './scratch-store.spec-helper';
import { SnapshotPolicy, StateCache, StreamLoader } from './stream-loader';
import { STALE_IF_MATCH, UnitOfWork } from './unit-of-work';

type Work = (unit: UnitOfWork) => Promise<unknown>;
type Answer = Decided<unknown> | { error: unknown };

/** One process's command side on `store`: the states it holds are its own. */
function process(store: EventStore, at = 1): CommandSide {
  const quiet = { warn: () => undefined };
  return {
    store,
    loader: new StreamLoader(store, new StateCache(), new SnapshotPolicy(store, null, quiet)),
    clock: { now: () => at },
  };
}

type Stores = ReturnType<typeof scratchStore>;

/** Two processes on one store: `here` (whose reads are counted) and another writer, `there`. */
function twoProcesses(stores: Stores): [here: CommandSide, there: CommandSide] {
  return [process(stores.counted, 1), process(stores.store, 2)];
}

/** The values a setting's stream holds, in order (other events by their type). */
const settingValues =
  (stores: Stores) =>
  async (streamId = 'setting-1') =>
    (await stores.store.readStream(streamId)).map((e) =>
      e.type === 'setting.set' ? (e.data as { value: string }).value : e.type,
    );

/** Handles `works` as one batch on `side`; answers each unit's outcome, in order. */
async function handle(side: CommandSide, ...works: Work[]): Promise<Answer[]> {
  const batch: PendingUnit[] = [];
  const answers = works.map(
    (work) => new Promise<Decided<unknown>>((resolve, reject) => batch.push({ work, context, resolve, reject })),
  );
  await decideAndAppend(batch, side);
  return Promise.all(answers.map((answer) => answer.catch((error: unknown) => ({ error }))));
}

const set =
  (value: string, streamId = 'setting-1'): Work =>
  (unit) =>
    unit.decide(setting, streamId, value);

/** The first unit's answer, or its error thrown. */
const only = async (answers: Promise<Answer[]>) => {
  const [answer] = await answers;
  if ('error' in answer) throw answer.error;
  return answer as Decided<{ events: unknown[]; revision: number }>;
};

describe('decideAndAppend: a batch of units of work', () => {
  const stores = scratchStore();
  let appends: string[][];
  let here: CommandSide;
  beforeEach(() => {
    appends = [];
    here = process(
      replacing(stores.store, 'appendToStreams', (batch) => {
        appends.push(batch.map((a) => `${a.streamId}+${a.events.length}@${a.expectedRevision}`));
        return stores.store.appendToStreams(batch);
      }),
    );
  });
  const tick: Work = (unit) => unit.decide(ticks, 'thing-a', 'tick');

  it('decides the units in order, each on what the ones before it decided, and writes them in one append', async () => {
    const answers = await handle(here, tick, tick, tick);

    expect(answers.map((a) => (a as Decided<{ revision: number }>).result.revision)).toEqual([0, 1, 2]);
    expect(appends).toEqual([['thing-a+3@no_stream']]);
  });

  it('writes every stream a unit decided on in one append, the ones ordered first and last at their ends', async () => {
    await handle(here, async (unit) => {
      await unit.decide(ticks, 'thing-last', 'tick', { order: 'last' });
      await unit.decide(ticks, 'thing-middle', 'tick');
      return unit.decide(ticks, 'thing-first', 'tick', { order: 'first' });
    });

    expect(appends).toEqual([['thing-first+1@no_stream', 'thing-middle+1@no_stream', 'thing-last+1@no_stream']]);
  });

  it('a unit that throws fails alone: nothing it decided is written, the others are', async () => {
    const refused: Work = async (unit) => {
      await unit.decide(ticks, 'thing-a', 'tick');
      throw new DomainError('conflict', 'No');
    };

    const [first, second, third] = await handle(here, tick, refused, tick);

    expect(second).toEqual({ error: new DomainError('conflict', 'No') });
    expect([first, third].map((a) => (a as Decided<{ revision: number }>).result.revision)).toEqual([0, 1]);
    expect((await stores.store.readStream('thing-a')).map((e) => e.revision)).toEqual([0, 1]);
  });

  it("checks If-Match against the revision the command would act on, the batch's earlier units included", async () => {
    await handle(here, tick);

    const ifMatch0: Work = (unit) => unit.decide(ticks, 'thing-a', 'tick', { expectedRevision: 0 });
    const answers = await handle(here, ifMatch0, ifMatch0);

    expect('error' in answers[0]).toBe(false);
    expect(answers[1]).toEqual({ error: expect.objectContaining({ message: STALE_IF_MATCH }) });
  });

  it('answers a unit that decided nothing with position 0 and no written streams, beside one that wrote', async () => {
    await handle(here, (unit) => unit.decide(thing, 'thing-old', 'create'));

    const create =
      (streamId: string): Work =>
      (unit) =>
        unit.decide(thing, streamId, 'create');
    const [created, unchanged] = (await handle(here, create('thing-1'), create('thing-old'))) as Decided<unknown>[];

    expect(created).toMatchObject({ written: ['thing-1'], position: expect.any(Number) });
    expect(created.position).toBeGreaterThan(0);
    expect(unchanged).toMatchObject({ written: [], position: 0 });
  });
});

describe('decideAndAppend: conflicts with another writer', () => {
  const stores = scratchStore();
  let here: CommandSide;
  /** Another process on the same store: its appends reach the store, never `here`'s states. */
  let there: CommandSide;
  beforeEach(() => ([here, there] = twoProcesses(stores)));
  const values = settingValues(stores);

  it('another process moved the stream: the append conflicts, and the retry decides on what it wrote', async () => {
    await handle(here, set('a'));
    await handle(there, set('b'));

    const { result } = await only(handle(here, set('c')));

    expect(result.revision).toBe(2);
    expect(await values()).toEqual(['a', 'b', 'c']);
  });

  it('another process moved a stream only looked at: the append conflicts on its check and the batch is decided again', async () => {
    await handle(here, set('open', 'setting-gate'));
    await handle(there, set('lock', 'setting-gate'));

    // Writes setting-2 only if the gate, looked at, is not locked: it is now, whatever `here` held.
    const [answer] = await handle(here, async (unit) => {
      const { state } = await unit.load(setting, 'setting-gate');
      if (state.locked) throw new DomainError('conflict', 'The gate is locked');
      return unit.decide(setting, 'setting-2', 'through');
    });

    expect(answer).toEqual({ error: new DomainError('conflict', 'The gate is locked') });
    expect(await values('setting-2')).toEqual([]);
  });

  it('gives up with the last conflict after a bounded number of retries', async () => {
    let attempts = 0;
    const racing = process(
      replacing(stores.store, 'appendToStreams', async () => {
        attempts++;
        throw new WrongExpectedRevisionError('thing-a', 0, 1);
      }),
    );

    const [answer] = await handle(racing, (unit) => unit.decide(ticks, 'thing-a', 'tick'));

    expect(answer).toEqual({ error: expect.any(WrongExpectedRevisionError) });
    expect(attempts).toBe(26);
  });

  it('a store that fails otherwise fails every unit of the batch at once', async () => {
    const failing = process(
      replacing(stores.store, 'appendToStreams', async () => {
        throw new Error('disk full');
      }),
    );

    const answers = await handle(failing, set('a'), set('b', 'setting-2'));

    expect(answers).toEqual([{ error: new Error('disk full') }, { error: new Error('disk full') }]);
  });
});

describe('decideAndAppend: states held in memory are decided on without reading them', () => {
  const stores = scratchStore();
  let here: CommandSide;
  let there: CommandSide;
  beforeEach(() => ([here, there] = twoProcesses(stores)));
  const values = settingValues(stores);

  it('a write on a held state reads nothing: the append checks the revision it was decided on', async () => {
    await handle(here, set('a'));
    stores.reads.length = 0;

    const { result } = await only(handle(here, set('b')));

    expect(result.revision).toBe(1);
    expect(stores.reads).toEqual([]);
  });

  it('a stream only looked at is checked by the write, not read either', async () => {
    const behind =
      (value: string): Work =>
      async (unit) => {
        await unit.load(setting, 'setting-1');
        return unit.decide(setting, 'setting-2', value);
      };
    await handle(here, set('a'));
    await handle(here, behind('x'));
    stores.reads.length = 0;

    await handle(here, behind('y'));

    expect(stores.reads).toEqual([]);
  });

  it('a command that writes nothing is answered on a state read again, not on a stale one', async () => {
    await handle(here, set('a'));
    await handle(there, set('b'));

    // Held, the state says 'a' (nothing to write); in the store it is 'b', so 'a' is written.
    const { result, position } = await only(handle(here, set('a')));

    expect(result.events).toHaveLength(1);
    expect(position).toBeGreaterThan(0);
    expect(await values()).toEqual(['a', 'b', 'a']);
  });

  it('a command that writes nothing on a current state costs one read of at most one event', async () => {
    await handle(here, set('a'));
    stores.reads.length = 0;

    const { result } = await only(handle(here, set('a')));

    expect(result.events).toEqual([]);
    expect(stores.reads).toEqual(['setting-1']);
  });

  it('a command refused on a held state is decided again on the current one before the refusal is answered', async () => {
    await handle(here, set('lock'));
    await handle(there, set('unlock'));

    const { result } = await only(handle(here, set('b')));

    expect((result.events as { type: string }[]).map((e) => e.type)).toEqual(['setting.set']);
    expect(await values()).toEqual(['setting.locked', 'setting.unlocked', 'b']);
  });

  it('a command refused on a current state is refused, after one read that finds nothing newer', async () => {
    await handle(here, set('lock'));
    stores.reads.length = 0;

    await expect(only(handle(here, set('c')))).rejects.toThrow('The setting is locked');
    expect(stores.reads).toEqual(['setting-1']);
  });

  it('a store that cannot be read to confirm a held state fails the command, which is not answered on it', async () => {
    const failing = process(
      replacing(stores.store, 'readStream', async () => {
        throw new Error('disk gone');
      }),
    );
    // `failing` holds the state of a stream it created (nothing read), which another process then moves.
    await handle(failing, (unit) => unit.decide(setting, 'setting-new', 'a', { newStream: true }));
    await handle(there, set('b', 'setting-new'));

    await expect(only(handle(failing, set('a', 'setting-new')))).rejects.toThrow('disk gone');
    expect(await values('setting-new')).toEqual(['a', 'b']);
  });
});

describe('decideAndAppend: newStream (a stream whose id was just generated)', () => {
  const stores = scratchStore();
  const create =
    (streamId: string, newStream: boolean): Work =>
    (unit) =>
      unit.decide(thing, streamId, 'create', { newStream });

  it('decides a new stream without reading it, and appends it as no_stream', async () => {
    const here = process(stores.counted);

    const { result } = await only(handle(here, create('thing-new', true)));

    expect(result.revision).toBe(0);
    expect(stores.reads).toEqual([]);
    expect((await stores.store.readStream('thing-new')).map((e) => [e.type, e.revision])).toEqual([
      ['thing.created', 0],
    ]);
  });

  it('reads the stream as usual without the option', async () => {
    await handle(process(stores.counted), create('thing-other', false));

    expect(stores.reads).toEqual(['thing-other']);
  });

  it('still decides on the real stream when the id turns out to exist: the append conflicts and the retry reads it', async () => {
    await handle(process(stores.store), create('thing-taken', false));

    // Another process: nothing of the stream held.
    const { result, position } = await only(handle(process(stores.counted, 2), create('thing-taken', true)));

    expect(result.events).toEqual([]);
    expect(position).toBe(0);
    expect(stores.reads).toContain('thing-taken');
    expect((await stores.store.readStream('thing-taken')).map((e) => e.revision)).toEqual([0]);
  });
});
