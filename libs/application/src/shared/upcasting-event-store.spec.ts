import { EventSchemaRegistry } from '@app/domain';
import { EventStore, NewEvent, RecordedEvent, SubscribeOptions } from '../ports/event-store.port';
import { UpcastingEventStore } from './upcasting-event-store';

const schemas = new EventSchemaRegistry({
  'thing.renamed': { version: 2, upcasters: { 1: (d: { name: string }) => ({ title: d.name }) } },
  'thing.created': { version: 1 },
});

const recorded = (type: string, schemaVersion: number, data: unknown, position: number): RecordedEvent => ({
  id: `e${position}`,
  type,
  schemaVersion,
  data,
  metadata: {
    workspaceId: 'ws',
    actor: { type: 'operator' },
    requestId: null,
    correlationId: 'c',
    causationId: null,
    recordedAt: 1,
  },
  streamId: 'thing-1',
  revision: position - 1,
  position,
});

const history = [
  recorded('thing.created', 1, { id: '1' }, 1),
  recorded('thing.renamed', 1, { name: 'Old' }, 2),
  recorded('gadget.made', 1, {}, 3),
  recorded('thing.renamed', 2, { title: 'New' }, 4),
  recorded('gadget.made', 1, {}, 5),
];

function fakeStore() {
  const appended: NewEvent[][] = [];
  let subscriber: SubscribeOptions | null = null;
  const store: EventStore = {
    appendToStream: async (_s, events) => {
      appended.push(events);
      return { nextRevision: 0, position: 1 };
    },
    appendToStreams: async (appends) => {
      appended.push(...appends.map((a) => a.events));
      return appends.map(() => ({ nextRevision: 0, position: 1 }));
    },
    atomicMultiStream: true,
    readStream: async () => history.slice(),
    readAll: async () => history.slice(),
    readAllStored: async () => [],
    readAt: async (position) => history.find((e) => e.position === position),
    subscribeToAll: (options) => {
      subscriber = options;
      return { stop: async () => undefined };
    },
    headPosition: async () => 5,
    identity: async () => ({ kind: 'memory', id: 'fake' }),
    close: async () => undefined,
  };
  return { store, appended, deliver: (events: RecordedEvent[]) => subscriber!.onEvents(events) };
}

describe('UpcastingEventStore', () => {
  const setup = () => {
    const fake = fakeStore();
    const unknown: string[] = [];
    const warnings: string[] = [];
    const store = new UpcastingEventStore(fake.store, schemas, {
      onUnknownType: (t) => unknown.push(t),
      logger: { warn: (m) => warnings.push(m) },
    });
    return { fake, store, unknown, warnings };
  };
  const current = [
    { type: 'thing.created', schemaVersion: 1, data: { id: '1' } },
    { type: 'thing.renamed', schemaVersion: 2, data: { title: 'Old' } },
    { type: 'gadget.made', schemaVersion: 1, data: {} },
    { type: 'thing.renamed', schemaVersion: 2, data: { title: 'New' } },
    { type: 'gadget.made', schemaVersion: 1, data: {} },
  ];

  it('hands out every event of readStream and readAll in its current shape, the rest of the record kept', async () => {
    const { store } = setup();
    for (const read of [await store.readStream('thing-1'), await store.readAll({ after: 0, maxCount: 10 })]) {
      expect(read).toMatchObject(current);
      expect(read.map((e) => e.position)).toEqual([1, 2, 3, 4, 5]);
      expect(read[1].metadata).toBe(history[1].metadata);
      expect(read[0]).toBe(history[0]); // current events are not copied
    }
    expect(history[1].data).toEqual({ name: 'Old' });
  });

  it('hands out the event read at a position in its current shape', async () => {
    const { store } = setup();
    expect(await store.readAt(2)).toMatchObject(current[1]);
    expect(await store.readAt(1)).toBe(history[0]);
    expect(await store.readAt(9)).toBeUndefined();
  });

  it('upcasts what a subscription delivers', async () => {
    const { fake, store } = setup();
    const seen: RecordedEvent[][] = [];
    store.subscribeToAll({ after: 0, onEvents: async (events) => void seen.push(events) });
    await fake.deliver(history.slice());
    expect(seen[0]).toMatchObject(current);
  });

  it('leaves appends untouched', async () => {
    const { fake, store } = setup();
    const events: NewEvent[] = [{ ...history[1] }];
    await store.appendToStream('thing-1', events, { expectedRevision: 'any' });
    expect(fake.appended[0]).toBe(events);
    expect(fake.appended[0][0]).toMatchObject({ schemaVersion: 1, data: { name: 'Old' } });
  });

  it('counts every unknown event read and warns once per type', async () => {
    const { store, unknown, warnings } = setup();
    await store.readStream('thing-1');
    await store.readAll({ after: 0, maxCount: 10 });
    expect(unknown).toEqual(['gadget.made', 'gadget.made', 'gadget.made', 'gadget.made']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"gadget.made"');
  });
});
