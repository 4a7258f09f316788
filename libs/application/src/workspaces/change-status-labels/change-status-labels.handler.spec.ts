import { WORKSPACE_NOT_FOUND, workspaceStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { GetStatusLabelsHandler } from '../get-status-labels/get-status-labels.handler';
import { GetStatusLabelsQuery } from '../get-status-labels/get-status-labels.query';
import { ChangeStatusLabelsCommand } from './change-status-labels.command';
import { ChangeStatusLabelsHandler } from './change-status-labels.handler';

describe('ChangeStatusLabelsHandler and GetStatusLabelsHandler (embedded stores)', () => {
  const spec = handlerSpec();
  const member = { type: 'member' as const, id: 'usr_1' };
  const change = (labels: Record<string, unknown>, workspaceId: string | null = 'ws_1') =>
    new ChangeStatusLabelsHandler(spec.repository, spec.clock).execute(
      new ChangeStatusLabelsCommand(spec.context(workspaceId, { actor: member }), labels),
    );
  const labelsOf = (workspaceId: string) =>
    new GetStatusLabelsHandler(spec.read).execute(new GetStatusLabelsQuery(workspaceId));

  beforeEach(async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1'));
    await spec.given(workspaceStream('ws_2'), given.workspaceCreated('ws_2'));
  });

  it('records the change on the workspace with the member as actor; the read model shows it once answered', async () => {
    const { events, recorded } = await spec.when(() => change({ in_progress: ' Flying ', draft: '' }));

    expect(events).toEqual([
      {
        streamId: 'workspace-ws_1',
        type: 'workspace.status_labels_changed',
        data: {
          workspace_id: 'ws_1',
          changes: { in_progress: 'Flying' },
          labels: { in_progress: 'Flying' },
          changed: NOW,
        },
      },
    ]);
    expect(recorded[0].metadata).toMatchObject({ workspaceId: 'ws_1', actor: member });
    expect(await labelsOf('ws_1')).toEqual({ in_progress: 'Flying' });
    expect(await labelsOf('ws_2')).toEqual({});
  });

  it('an empty label resets the status to its default; the read model drops it', async () => {
    await change({ in_progress: 'Flying', on_hold: 'Parked' });

    await change({ in_progress: '' });
    expect(await labelsOf('ws_1')).toEqual({ on_hold: 'Parked' });
  });

  it('refuses an invalid label naming its status, and records nothing', async () => {
    await spec.whenRefused(
      () => change({ planned: 'p'.repeat(41) }),
      'validation',
      'label for planned must be between 1 and 40 characters',
    );
    await spec.whenRefused(
      () => change({ planned: 'a\tb' }),
      'validation',
      'label for planned must not contain control characters',
    );
  });

  it('without a workspace, or for one that does not exist, finds nothing', async () => {
    await spec.whenRefused(() => change({ draft: 'Idea' }, null), 'not_found', WORKSPACE_NOT_FOUND);
    await spec.whenRefused(() => change({ draft: 'Idea' }, 'ws_404'), 'not_found', WORKSPACE_NOT_FOUND);
    await expect(labelsOf('ws_404')).rejects.toThrow(WORKSPACE_NOT_FOUND);
  });
});
