import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { NewEvent } from '../ports/event-store.port';
import { EventStoreMismatchError, readModelsSource } from './event-store-stamp';
import { ProjectionEngine } from './projection-engine';
import { ProjectionMaintenance } from './projection-maintenance';
import { Projector } from './projector';

const things: Projector = {
  name: 'things',
  collections: [{ name: 'things' }],
  project: (event) => [
    { op: 'put', collection: 'things', id: event.id, workspaceId: 'ws', seq: event.position, doc: {} },
  ],
};
const quiet = { error: () => undefined, warn: () => undefined };
const made = (): NewEvent => ({
  id: randomUUID(),
  type: 'thing.made',
  schemaVersion: 1,
  data: {},
  metadata: {
    workspaceId: 'ws',
    actor: { type: 'operator' },
    requestId: null,
    correlationId: 'c',
    causationId: null,
    recordedAt: 1,
  },
});

describe('The read models record which event store their checkpoints belong to', () => {
  let dir: string;
  const open: { close(): Promise<void> }[] = [];
  const eventStore = (file: string) => {
    const store = new SqliteEventStore(join(dir, file), { writer: 'inline', pollIntervalMs: 10 });
    open.push(store);
    return store;
  };
  const readModels = () => {
    const read = new SqliteReadModelStore(join(dir, 'read-models.db'));
    open.push(read);
    return read;
  };
  /** Starts projecting `events` into `read`, appends one event and waits until it is applied. */
  const project = async (events: SqliteEventStore, read: SqliteReadModelStore) => {
    const engine = new ProjectionEngine(events, read, [things], quiet);
    await engine.start();
    const { position } = await events.appendToStream(`thing-${randomUUID()}`, [made()], {
      expectedRevision: 'no_stream',
    });
    expect(await engine.waitFor(position)).toBe(true);
    return engine;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-stamp-'));
  });
  afterEach(async () => {
    for (const store of open.splice(0).reverse()) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stamps fresh read models with the store the projections start on', async () => {
    const events = eventStore('events.db');
    const read = readModels();
    const engine = await project(events, read);
    await engine.stop();
    expect(await readModelsSource(read)).toEqual(await events.identity());
  });

  it('starts again on the same store, also opened anew', async () => {
    const read = readModels();
    const first = eventStore('events.db');
    await (await project(first, read)).stop();
    await first.close();
    const again = await project(eventStore('events.db'), read);
    await again.stop();
  });

  it('refuses to start on another store, naming both and what to do, and changes nothing', async () => {
    const read = readModels();
    const a = eventStore('a.db');
    await (await project(a, read)).stop();
    const checkpoints = await read.getCheckpoints();

    const b = eventStore('b.db');
    await b.appendToStream('thing-b', [made(), made(), made()], { expectedRevision: 'no_stream' });
    const engine = new ProjectionEngine(b, read, [things], quiet);
    const refused = engine.start();
    await expect(refused).rejects.toBeInstanceOf(EventStoreMismatchError);
    const message = ((await refused.catch((e: unknown) => e)) as Error).message;
    const [ida, idb] = [await a.identity(), await b.identity()];
    expect(ida.id).not.toBe(idb.id);
    expect(message).toContain(`sqlite ${ida.id}`);
    expect(message).toContain(`sqlite ${idb.id}`);
    expect(message).toMatch(/rebuild/i);
    expect(message).toContain('read-models.db');
    expect(engine.running()).toBe(false);
    expect(await read.getCheckpoints()).toEqual(checkpoints);
    expect(await readModelsSource(read)).toEqual(ida);
  });

  it('takes read models that nothing was projected into for the store they start on', async () => {
    const read = readModels();
    const a = eventStore('a.db');
    const idle = new ProjectionEngine(a, read, [things], quiet);
    await idle.start();
    await idle.stop();
    const b = eventStore('b.db');
    await (await project(b, read)).stop();
    expect(await readModelsSource(read)).toEqual(await b.identity());
  });

  it('a rebuild stamps the read models with the store it replayed', async () => {
    const events = eventStore('events.db');
    const read = readModels();
    const engine = await project(events, read);
    // Read models stamped by nobody (as those of an earlier release).
    await read.apply([{ op: 'delete', collection: 'projected_from', id: 'event_store' }], {});
    expect(await readModelsSource(read)).toBeNull();
    await new ProjectionMaintenance(engine, events, read).startRebuild('things').done;
    expect(await readModelsSource(read)).toEqual(await events.identity());
    await engine.stop();
  });

  it('adopts read models an earlier release projected without a stamp: the store they start on is recorded', async () => {
    const events = eventStore('events.db');
    const read = readModels();
    await (await project(events, read)).stop();
    await read.apply([{ op: 'delete', collection: 'projected_from', id: 'event_store' }], {});
    await (await project(events, read)).stop();
    expect(await readModelsSource(read)).toEqual(await events.identity());
  });
});
