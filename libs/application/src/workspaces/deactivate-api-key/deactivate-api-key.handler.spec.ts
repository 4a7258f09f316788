import { OPERATOR, workspaceStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { DeactivateApiKeyCommand } from './deactivate-api-key.command';
import { API_KEY_NOT_FOUND } from '@app/domain';
import { DeactivateApiKeyHandler } from './deactivate-api-key.handler';

describe('DeactivateApiKeyHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const deactivate = (keyId: string) =>
    new DeactivateApiKeyHandler(spec.repository, spec.read, spec.clock).execute(
      new DeactivateApiKeyCommand(spec.context(null, { actor: OPERATOR }), keyId),
    );

  beforeEach(async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1'), {
      type: 'workspace.api_key_created',
      data: { workspace_id: 'ws_1', key_id: 'key_1', name: 'bot', scope: 'read_only', key_hash: 'h', created: 1 },
    });
  });

  it("records the deactivation on the key's workspace, found by the key id alone", async () => {
    const { events, recorded } = await spec.when(() => deactivate('key_1'));

    expect(events).toEqual([
      {
        streamId: 'workspace-ws_1',
        type: 'workspace.api_key_deactivated',
        data: { workspace_id: 'ws_1', key_id: 'key_1', deactivated: NOW },
      },
    ]);
    expect(recorded[0].metadata.workspaceId).toBe('ws_1');
  });

  it('deactivating an inactive key records nothing', async () => {
    await deactivate('key_1');

    const { events } = await spec.when(() => deactivate('key_1'));
    expect(events).toEqual([]);
  });

  it('a caller confined to another workspace finds the key as a missing one, and it stays active', async () => {
    const other = () =>
      new DeactivateApiKeyHandler(spec.repository, spec.read, spec.clock).execute(
        new DeactivateApiKeyCommand(spec.context('ws_2', { actor: { type: 'member', id: 'usr_2' } }), 'key_1'),
      );
    await spec.whenRefused(other, 'not_found', API_KEY_NOT_FOUND);
  });

  it('an unknown key is not found', async () => {
    await spec.whenRefused(() => deactivate('key_404'), 'not_found', API_KEY_NOT_FOUND);
  });
});
