import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Actor } from '@app/domain';
import { SqliteEventStore, SqliteReadModelStore, SqliteSubjectKeyStore } from '@app/infrastructure/sqlite';
import { Clock } from '../ports/clock.port';
import { timeOrderedIds } from './time-ordered-ids';
import { SubjectKeyStore } from '../ports/subject-key-store.port';
import { PersonalDataVault } from '../privacy/personal-data-vault';
import { ALL_PROJECTORS } from '../projections/all-projectors';
import { ProjectionEngine } from '../projections/projection-engine';
import { CreateWorkspaceCommand } from '../workspaces/create-workspace/create-workspace.command';
import { CreateWorkspaceHandler } from '../workspaces/create-workspace/create-workspace.handler';
import { CommandContext } from './command-context';
import { EventSourcedRepository } from './event-sourced-repository';

/**
 * The embedded adapters a handler spec runs on: the SQLite event store, read models and subject
 * keys in a temporary directory, every projector running, and a repository that waits for its
 * writes' read models as the service's does. `useEmbeddedStores()` opens them before each test of
 * the describe block that calls it and removes them after.
 */
export interface EmbeddedStores {
  readonly dir: string;
  readonly events: SqliteEventStore;
  readonly read: SqliteReadModelStore;
  readonly engine: ProjectionEngine;
  readonly repository: EventSourcedRepository;
  readonly keys: SubjectKeyStore;
  readonly vault: PersonalDataVault;
  /** Settable: `stores.clock.at += …` moves time for the next command. */
  readonly clock: Clock & { at: number };
  /** A new workspace created through its handler, and a context of an API key of it. */
  workspace(name?: string): Promise<{ id: string; context: CommandContext }>;
  /** Resolves once every projection has caught up with the store's head. */
  settle(): Promise<void>;
  /** The types of the events recorded on a stream, oldest first. */
  eventTypes(streamId: string): Promise<string[]>;
}

export function apiKeyContext(workspaceId: string, actor: Actor = { type: 'api_key', id: 'key_1', name: 'Spec key' }) {
  const requestId = `req_${timeOrderedIds.next('r')}`;
  return { actor, workspaceId, requestId, causationId: requestId } satisfies CommandContext;
}

export function useEmbeddedStores(prefix = 'wos-handler-', startAt = Date.UTC(2030, 0, 1)): EmbeddedStores {
  const stores = {} as {
    -readonly [K in keyof EmbeddedStores]: EmbeddedStores[K];
  } & { keys: SqliteSubjectKeyStore };
  const quiet = { error: () => undefined, warn: () => undefined };

  beforeEach(async () => {
    stores.dir = mkdtempSync(join(tmpdir(), prefix));
    stores.clock = { at: startAt, now: () => stores.clock.at };
    stores.events = new SqliteEventStore(join(stores.dir, 'events.db'), { writer: 'inline', pollIntervalMs: 20 });
    stores.read = new SqliteReadModelStore(join(stores.dir, 'read-models.db'));
    stores.keys = new SqliteSubjectKeyStore(join(stores.dir, 'subject-keys.db'));
    stores.vault = new PersonalDataVault(stores.keys);
    stores.engine = new ProjectionEngine(stores.events, stores.read, ALL_PROJECTORS, quiet);
    await stores.engine.start();
    stores.repository = new EventSourcedRepository(stores.events, stores.clock, stores.engine);
    stores.settle = async () => {
      if (!(await stores.engine.waitFor(await stores.events.headPosition(), {}, 10_000)))
        throw new Error('projections behind');
    };
    stores.eventTypes = async (streamId) => (await stores.events.readStream(streamId)).map((e) => e.type);
    stores.workspace = async (name = 'Spec workspace') => {
      const create = new CreateWorkspaceHandler(stores.repository, stores.clock, timeOrderedIds);
      const operator = apiKeyContext('', { type: 'operator' });
      const { id } = await create.execute(
        new CreateWorkspaceCommand(
          { ...operator, workspaceId: null },
          { name, plan: 'enterprise', projectLimit: null },
        ),
      );
      return { id, context: apiKeyContext(id) };
    };
  });
  afterEach(async () => {
    await stores.engine.stop();
    await stores.events.close();
    await stores.read.close();
    await stores.keys.close();
    rmSync(stores.dir, { recursive: true, force: true });
  });
  return stores;
}
