import { OPERATOR, WORKSPACE_NOT_FOUND, workspaceStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { API_KEY_FORMAT, hashApiKey } from '../api-key-authenticator';
import { CreateApiKeyCommand } from './create-api-key.command';
import { CreateApiKeyHandler } from './create-api-key.handler';

describe('CreateApiKeyHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const create = (workspaceId = 'ws_1') =>
    new CreateApiKeyHandler(spec.repository, spec.clock, spec.ids).execute(
      new CreateApiKeyCommand(spec.context(null, { actor: OPERATOR }), workspaceId, {
        name: 'Ops bot',
        scope: 'full_access',
      }),
    );

  beforeEach(async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1'));
  });

  it('answers the key once and records only its hash', async () => {
    const { result, events, recorded } = await spec.when(() => create());

    expect(result.id).toBe('key_1');
    expect(result.key).toMatch(API_KEY_FORMAT);
    expect(events).toEqual([
      {
        streamId: 'workspace-ws_1',
        type: 'workspace.api_key_created',
        data: {
          workspace_id: 'ws_1',
          key_id: 'key_1',
          name: 'Ops bot',
          scope: 'full_access',
          key_hash: hashApiKey(result.key),
          created: NOW,
        },
      },
    ]);
    expect(JSON.stringify(recorded)).not.toContain(result.key);
  });

  it('every key is a new secret', async () => {
    const first = await create();
    const second = await create();

    expect(second.id).toBe('key_2');
    expect(second.key).not.toBe(first.key);
  });

  it('a workspace that does not exist gets no key', async () => {
    await spec.whenRefused(() => create('ws_404'), 'not_found', WORKSPACE_NOT_FOUND);
  });
});
