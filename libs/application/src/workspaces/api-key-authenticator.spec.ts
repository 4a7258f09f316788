import { RecordedEvent } from '../ports/event-store.port';
import { ReadModelStore } from '../ports/read-model.port';
import { ProjectionEngine } from '../projections/projection-engine';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { generateApiKey } from './api-key-authenticator';

/** Read models holding one active key of an enterprise workspace; counts the lookups made. */
function readModels(keyHash: string) {
  const lookups: string[] = [];
  const read = {
    find: async (collection: string) => {
      lookups.push(collection);
      return [
        {
          doc: {
            id: 'key_1',
            name: 'CI',
            workspace_id: 'ws_1',
            status: 'active',
            scope: 'full_access',
            key_hash: keyHash,
          },
        },
      ];
    },
    get: async (collection: string) => {
      lookups.push(collection);
      return { doc: { id: 'ws_1', plan: 'enterprise' } };
    },
  } as unknown as ReadModelStore;
  return { read, lookups };
}

/** The engine's applied-events feed, driven by the test. */
function appliedFeed() {
  let listener: (events: RecordedEvent[]) => void = () => undefined;
  const engine = {
    onApplied: (l: typeof listener) => {
      listener = l;
      return () => undefined;
    },
  } as unknown as ProjectionEngine;
  return { engine, apply: (events: Partial<RecordedEvent>[]) => listener(events as RecordedEvent[]) };
}

describe('ApiKeyAuthenticator.check: answered in the same turn when it can be', () => {
  const { key, hash } = generateApiKey();
  const principal = { keyId: 'key_1', keyName: 'CI', workspaceId: 'ws_1', scope: 'full_access' };

  it('given a malformed key, answers invalid at once, without a lookup', () => {
    const { read, lookups } = readModels(hash);
    const authenticator = new ApiKeyAuthenticator(read, appliedFeed().engine);
    expect(authenticator.check('not-a-key')).toEqual({ ok: false, failure: 'invalid_api_key' });
    expect(authenticator.check(undefined)).toEqual({ ok: false, failure: 'invalid_api_key' });
    expect(lookups).toEqual([]);
  });

  it('given a key not seen yet, looks it up (a promise); seen again, answers from memory (a value)', async () => {
    const { read, lookups } = readModels(hash);
    const authenticator = new ApiKeyAuthenticator(read, appliedFeed().engine);
    const first = authenticator.check(key);
    expect(first).toBeInstanceOf(Promise);
    await expect(first).resolves.toEqual({ ok: true, principal });
    expect(lookups).toEqual(['api_keys', 'workspaces']);

    expect(authenticator.check(key)).toEqual({ ok: true, principal });
    expect(lookups).toHaveLength(2);
  });

  it("when one of the workspace's events is applied, the next check looks the key up again", async () => {
    const { read, lookups } = readModels(hash);
    const feed = appliedFeed();
    const authenticator = new ApiKeyAuthenticator(read, feed.engine);
    await authenticator.check(key);
    feed.apply([
      { type: 'workspace.api_key_deactivated', metadata: { workspaceId: 'ws_1' } as RecordedEvent['metadata'] },
    ]);
    const again = authenticator.check(key);
    expect(again).toBeInstanceOf(Promise);
    await again;
    expect(lookups).toEqual(['api_keys', 'workspaces', 'api_keys', 'workspaces']);
  });
});
