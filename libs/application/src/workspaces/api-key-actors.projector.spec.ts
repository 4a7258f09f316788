import { workspaceStream } from '@app/domain';
import { projectorSpec } from '../projections/projector.spec-helper';
import { API_KEY_ACTORS, apiKeyActorsProjector } from './api-key-actors.projector';

const created = (keyId: string) =>
  ({
    type: 'workspace.api_key_created',
    data: { workspace_id: 'ws_1', key_id: keyId, name: 'bot', scope: 'read_only', key_hash: 'kh', created: 300 },
  }) as const;

describe('API key actors projector: who created and who deactivated each key', () => {
  const projection = projectorSpec(apiKeyActorsProjector);
  const { record } = projection;

  it('keeps the actors of the key’s events, with their fields only', async () => {
    const stream = workspaceStream('ws_1');
    const member = { type: 'member', id: 'usr_9' } as const;
    await projection.given(
      record(stream, created('key_1'), { actor: { ...member, extra: 'x' } as never }),
      record(stream, created('key_2')),
      record(
        stream,
        { type: 'workspace.api_key_deactivated', data: { workspace_id: 'ws_1', key_id: 'key_1', deactivated: 600 } },
        { actor: { type: 'api_key', id: 'key_0', name: 'bot' } },
      ),
    );

    await projection.expectDocuments({
      [API_KEY_ACTORS]: [
        {
          id: 'key_1',
          workspaceId: 'ws_1',
          seq: 1,
          version: 0,
          doc: {
            id: 'key_1',
            created_by: member,
            deactivated: 600,
            deactivated_by: { type: 'api_key', id: 'key_0', name: 'bot' },
          },
        },
        {
          id: 'key_2',
          workspaceId: 'ws_1',
          seq: 2,
          version: 0,
          doc: { id: 'key_2', created_by: { type: 'operator' }, deactivated: null, deactivated_by: null },
        },
      ],
    });
  });
});
