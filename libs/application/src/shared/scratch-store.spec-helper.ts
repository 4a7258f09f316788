import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError, DomainEvent, OPERATOR, Decider } from '@app/domain';
import { SqliteEventStore } from '@app/infrastructure/sqlite';
import { EventStore } from '../ports/event-store.port';
import { CommandContext } from './command-context';

export const context: CommandContext = {
  actor: OPERATOR,
  workspaceId: 'ws_1',
  requestId: 'req_1',
  causationId: 'req_1',
};

/** `store` with one method replaced; every other member is the store's own. */
export function replacing<K extends keyof EventStore>(
  store: EventStore,
  method: K,
  replacement: EventStore[K],
): EventStore {
  return new Proxy(store, {
    get: (target, name) => (name === method ? replacement : Reflect.get(target, name, target)),
  });
}

/**
 * An embedded event store in a scratch folder, fresh for each test of the describe that calls
 * this, and the same store counting the stream reads made through it (`counted`, `reads`).
 */
export function scratchStore(): { store: SqliteEventStore; counted: EventStore; reads: string[] } {
  let dir: string;
  const stores = {} as { store: SqliteEventStore; counted: EventStore; reads: string[] };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-command-'));
    stores.store = new SqliteEventStore(join(dir, 'events.db'), { writer: 'inline' });
    stores.reads = [];
    stores.counted = replacing(stores.store, 'readStream', (streamId, options) => {
      stores.reads.push(streamId);
      return stores.store.readStream(streamId, options);
    });
  });
  afterEach(async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return stores;
}

/** Creates once: a second create on the same stream decides nothing. */
export const thing: Decider<{ created: boolean }, 'create', DomainEvent> = {
  initialState: () => ({ created: false }),
  evolve: () => ({ created: true }),
  decide: (_command, state) => (state.created ? [] : [{ type: 'thing.created', data: {} }]),
};

/** Appends on every command. */
export const ticks: Decider<{ count: number }, 'tick', DomainEvent> = {
  initialState: () => ({ count: 0 }),
  evolve: (state) => ({ count: state.count + 1 }),
  decide: () => [{ type: 'thing.ticked', data: {} }],
};

/** A value that only changes when a command sets a different one; `lock`ed, it refuses changes. */
export type Setting = { value: string; locked: boolean };
export const setting: Decider<Setting, string, DomainEvent> = {
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
