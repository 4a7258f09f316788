import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '@app/infrastructure/sqlite/sqlite-driver';
import { SqliteEventStore, SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { NewEvent } from '../ports/event-store.port';
import { ReadModelStore, StoredDocument } from '../ports/read-model.port';
import { ALL_PROJECTORS } from './all-projectors';
import { STAMP_COLLECTION } from './event-store-stamp';
import { given } from '../shared/handler.spec-helper';
import { ProjectionEngine } from './projection-engine';

const operator = { type: 'operator' as const };
const event = (type: string, data: unknown, workspaceId: string | null, n: number): NewEvent => ({
  id: `evt_${n}`,
  type,
  schemaVersion: 1,
  data,
  metadata: {
    workspaceId,
    actor: operator,
    requestId: null,
    correlationId: 'test',
    causationId: null,
    recordedAt: 1_000 + n,
  },
});

async function scanAll(store: ReadModelStore): Promise<Record<string, StoredDocument[]>> {
  const out: Record<string, StoredDocument[]> = {};
  for (const { name } of ALL_PROJECTORS.flatMap((p) => p.collections)) {
    out[name] = [];
    for await (const doc of store.scan(name)) out[name].push(doc);
  }
  return out;
}

/**
 * A projection that has never run catches up bulk-loaded (indexes built once it reaches the head)
 * with writes to one document folded per batch: the read models must be exactly those that
 * applying every event's writes one by one gives, and fully indexed when the engine is caught up.
 */
describe('ProjectionEngine catching up from the start of history (embedded SQLite)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-engine-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('builds the same documents as one-by-one application, then has every index', async () => {
    const events = new SqliteEventStore(join(dir, 'events.db'), { writer: 'inline' });
    const ws = 'ws_1';
    let n = 0;
    await events.appendToStream(
      `workspace-${ws}`,
      [
        event(
          'workspace.created',
          { id: ws, name: 'Acme', plan: 'enterprise', project_limit: null, created: 1 },
          ws,
          n++,
        ),
        event(
          'workspace.api_key_created',
          { workspace_id: ws, key_id: 'key_1', name: 'bot', scope: 'full_access', key_hash: 'h1', created: 1 },
          ws,
          n++,
        ),
      ],
      { expectedRevision: 'no_stream' },
    );
    for (let i = 0; i < 30; i++) {
      const id = `prj_${i}`;
      const stream = [
        event('project.created', { ...given.projectCreated(id, ws).data, name: `P${i}`, created: 2 }, ws, n++),
        event(
          'project.updated',
          {
            id,
            workspace_id: ws,
            changes: { name: `P${i} v2`, status: i % 3 === 0 ? 'completed' : 'planned' },
            updated: 3,
          },
          ws,
          n++,
        ),
        event('project.updated', { id, workspace_id: ws, changes: { archived: i % 5 === 0 }, updated: 4 }, ws, n++),
      ];
      if (i % 7 === 0) stream.push(event('project.deleted', { id, workspace_id: ws, deleted: 5 }, ws, n++));
      await events.appendToStream(`project-${id}`, stream, { expectedRevision: 'no_stream' });
    }
    const head = await events.headPosition();

    // The reference: every event's writes applied on their own, in order (beside the record of
    // the event store, which the engine keeps with the read models).
    const reference = new SqliteReadModelStore(join(dir, 'reference.db'));
    await reference.init([...ALL_PROJECTORS.flatMap((p) => p.collections), STAMP_COLLECTION]);
    for (const recorded of await events.readAll({ after: 0, maxCount: 10_000 })) {
      for (const projector of ALL_PROJECTORS) await reference.apply(projector.project(recorded), {});
    }

    const read = new SqliteReadModelStore(join(dir, 'read-models.db'));
    const engine = new ProjectionEngine(events, read, ALL_PROJECTORS, {
      error: () => undefined,
      warn: () => undefined,
    });
    await engine.start();
    expect(await engine.waitFor(head, {}, 10_000)).toBe(true);

    expect(await scanAll(read)).toEqual(await scanAll(reference));
    const completed = await read.find('projects', {
      workspaceId: ws,
      where: { status: 'completed', archived: false },
      limit: 50,
    });
    expect(completed.map((d) => d.id)).toEqual(['prj_3', 'prj_6', 'prj_9', 'prj_12', 'prj_18', 'prj_24', 'prj_27']);
    const [key] = await read.find('api_keys', { where: { key_hash: 'h1' }, limit: 1 });
    expect(key.id).toBe('key_1');

    await engine.stop();
    await read.close();
    await reference.close();
    await events.close();
    // Caught up means indexed: the bulk-loaded collections got the indexes a live one has.
    const indexes = (file: string) =>
      new Database(join(dir, file), { readonly: true })
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .pluck()
        .all();
    expect(indexes('read-models.db')).toEqual(indexes('reference.db'));
  });
});
