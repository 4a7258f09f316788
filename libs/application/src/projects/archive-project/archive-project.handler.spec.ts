import { PROJECT_NOT_FOUND, projectStream } from '@app/domain';
import { STALE_IF_MATCH } from '../../shared/event-sourced-repository';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { ArchiveProjectCommand } from './archive-project.command';
import { ArchiveProjectHandler } from './archive-project.handler';

describe('ArchiveProjectHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const archive = (archived: boolean, options: { workspaceId?: string; expectedRevision?: number } = {}) =>
    new ArchiveProjectHandler(spec.repository, spec.clock).execute(
      new ArchiveProjectCommand(
        spec.context(options.workspaceId ?? 'ws_1'),
        'prj_1',
        archived,
        options.expectedRevision,
      ),
    );

  beforeEach(async () => {
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
  });

  it('archiving is an update of `archived`; unarchiving another', async () => {
    const archived = await spec.when(() => archive(true));
    const restored = await spec.when(() => archive(false));

    expect(archived.result).toEqual({ revision: 1 });
    expect(archived.events).toEqual([
      {
        streamId: 'project-prj_1',
        type: 'project.updated',
        data: { id: 'prj_1', workspace_id: 'ws_1', changes: { archived: true }, updated: NOW },
      },
    ]);
    expect(restored.result).toEqual({ revision: 2 });
    expect(restored.events.map((e) => e.data)).toEqual([
      { id: 'prj_1', workspace_id: 'ws_1', changes: { archived: false }, updated: NOW },
    ]);
  });

  it('archiving an archived project records nothing', async () => {
    await archive(true);

    const { result, events } = await spec.when(() => archive(true));

    expect(result).toEqual({ revision: 1 });
    expect(events).toEqual([]);
  });

  it('a stale If-Match is refused', async () => {
    await archive(true);

    await spec.whenRefused(() => archive(false, { expectedRevision: 0 }), 'precondition_failed', STALE_IF_MATCH);
  });

  it("another workspace's project is not found", async () => {
    await spec.whenRefused(() => archive(true, { workspaceId: 'ws_2' }), 'not_found', PROJECT_NOT_FOUND);
  });
});
