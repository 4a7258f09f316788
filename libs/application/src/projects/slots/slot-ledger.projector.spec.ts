import { CreatedBy, ProjectCreated, projectStream, workspaceStream } from '@app/domain';
import { projectorSpec, SpecHistory, T0 } from '../../projections/projector.spec-helper';
import { DELETED_PROJECTS, SLOTS_HELD_BY_DELETED, SLOTS_PENDING, slotLedgerProjector } from './slot-ledger.projector';

const createdBy: CreatedBy = {
  id: 'operator',
  email: null,
  first_name: 'Operator',
  last_name: null,
  profile_picture: null,
};
const created = (id: string, workspaceId: string): ProjectCreated => ({
  type: 'project.created',
  data: {
    id,
    workspace_id: workspaceId,
    name: id,
    description: '',
    status: 'planned',
    other_status_reason: null,
    start_date: '2026-12-01',
    end_date: null,
    external_id: null,
    created_by: createdBy,
    created: 100,
  },
});
const reserved = (workspaceId: string, projectId: string) =>
  ({ type: 'workspace.project_slot_reserved', data: { workspace_id: workspaceId, project_id: projectId } }) as const;
const released = (workspaceId: string, projectId: string) =>
  ({ type: 'workspace.project_slot_released', data: { workspace_id: workspaceId, project_id: projectId } }) as const;
const deleted = (id: string, workspaceId: string) =>
  ({ type: 'project.deleted', data: { id, workspace_id: workspaceId, deleted: 300 } }) as const;

/**
 * The ledger the slot reconciler reads: what a unit of work started and has not (yet) finished.
 * Each document is put by the first event of a pair and removed by the second.
 */
describe('slot ledger projector: given events -> pending and held slots, deleted projects', () => {
  const projection = projectorSpec(slotLedgerProjector);
  let history: SpecHistory;
  beforeEach(() => {
    history = new SpecHistory();
  });

  it('a reservation without its project is pending, since the time it was recorded', async () => {
    await projection.given(history.record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')));

    await projection.expectDocuments({
      [SLOTS_PENDING]: [
        {
          id: 'prj_1',
          workspaceId: 'ws_1',
          seq: 1,
          version: 0,
          doc: { project_id: 'prj_1', workspace_id: 'ws_1', reserved_at: T0 + 1 },
        },
      ],
    });
  });

  it('the project created after its reservation closes it', async () => {
    await projection.given(
      history.record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      history.record(workspaceStream('ws_1'), reserved('ws_1', 'prj_2')),
      history.record(projectStream('prj_1'), created('prj_1', 'ws_1')),
    );

    await projection.expectDocuments({
      [SLOTS_PENDING]: [
        {
          id: 'prj_2',
          workspaceId: 'ws_1',
          seq: 2,
          version: 0,
          doc: { project_id: 'prj_2', workspace_id: 'ws_1', reserved_at: T0 + 2 },
        },
      ],
    });
  });

  it('a deleted project holds its slot until released, and stays listed as deleted', async () => {
    await projection.given(
      history.record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      history.record(projectStream('prj_1'), created('prj_1', 'ws_1')),
      history.record(workspaceStream('ws_1'), reserved('ws_1', 'prj_2')),
      history.record(projectStream('prj_2'), created('prj_2', 'ws_1')),
      history.record(projectStream('prj_1'), deleted('prj_1', 'ws_1')),
      history.record(projectStream('prj_2'), deleted('prj_2', 'ws_1')),
      history.record(workspaceStream('ws_1'), released('ws_1', 'prj_1')),
    );

    const prj1 = { project_id: 'prj_1', workspace_id: 'ws_1', deleted_at: T0 + 5 };
    const prj2 = { project_id: 'prj_2', workspace_id: 'ws_1', deleted_at: T0 + 6 };
    await projection.expectDocuments({
      [SLOTS_HELD_BY_DELETED]: [{ id: 'prj_2', workspaceId: 'ws_1', seq: 6, version: 0, doc: prj2 }],
      [DELETED_PROJECTS]: [
        { id: 'prj_1', workspaceId: 'ws_1', seq: 5, version: 0, doc: prj1 },
        { id: 'prj_2', workspaceId: 'ws_1', seq: 6, version: 0, doc: prj2 },
      ],
    });
  });

  it('an abandoned creation is a deleted project holding no slot; its release closes the reservation', async () => {
    await projection.given(
      history.record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      history.record(projectStream('prj_1'), {
        type: 'project.creation_abandoned',
        data: { id: 'prj_1', workspace_id: 'ws_1', abandoned: 300 },
      }),
      history.record(workspaceStream('ws_1'), released('ws_1', 'prj_1')),
    );

    await projection.expectDocuments({
      [DELETED_PROJECTS]: [
        {
          id: 'prj_1',
          workspaceId: 'ws_1',
          seq: 2,
          version: 0,
          doc: { project_id: 'prj_1', workspace_id: 'ws_1', deleted_at: T0 + 2 },
        },
      ],
    });
  });

  it('events of the workspace stream it does not handle write nothing', async () => {
    await projection.given(
      history.record(workspaceStream('ws_1'), {
        type: 'workspace.created',
        data: { id: 'ws_1', name: 'Acme', plan: 'pro', project_limit: 5, created: 100 },
      }),
    );

    await projection.expectDocuments({});
  });

  it('a redelivered history leaves the same ledger (no slot counted twice)', async () => {
    const events = [
      history.record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      history.record(workspaceStream('ws_1'), reserved('ws_1', 'prj_2')),
      history.record(projectStream('prj_2'), created('prj_2', 'ws_1')),
      history.record(projectStream('prj_2'), deleted('prj_2', 'ws_1')),
    ];
    await projection.given(...events);
    const once = await projection.documents();

    await projection.given(events[0], events[3]);
    await projection.given(...events);

    expect(await projection.documents()).toEqual(once);
    expect(await projection.store.count(SLOTS_PENDING, { workspaceId: 'ws_1' })).toBe(1);
    expect(await projection.store.count(SLOTS_HELD_BY_DELETED, { workspaceId: 'ws_1' })).toBe(1);
  });

  it("another workspace's ledger is kept under that workspace", async () => {
    await projection.given(
      history.record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      history.record(workspaceStream('ws_2'), reserved('ws_2', 'prj_9')),
      history.record(projectStream('prj_9'), created('prj_9', 'ws_2')),
      history.record(projectStream('prj_9'), deleted('prj_9', 'ws_2')),
    );

    expect((await projection.store.find(SLOTS_PENDING, { workspaceId: 'ws_1', limit: 10 })).map((d) => d.id)).toEqual([
      'prj_1',
    ]);
    expect(await projection.store.find(SLOTS_PENDING, { workspaceId: 'ws_2', limit: 10 })).toEqual([]);
    expect(await projection.store.find(DELETED_PROJECTS, { workspaceId: 'ws_1', limit: 10 })).toEqual([]);
    expect(
      (await projection.store.find(SLOTS_HELD_BY_DELETED, { workspaceId: 'ws_2', limit: 10 })).map((d) => d.id),
    ).toEqual(['prj_9']);
  });
});
