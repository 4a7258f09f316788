import { jobStream, projectStream, workspaceStream } from '@app/domain';
import { projectorSpec, T0 } from '../../projections/projector.spec-helper';
import { given } from '../../shared/handler.spec-helper';
import { DELETED_PROJECTS, SLOTS_HELD_BY_DELETED, SLOTS_PENDING, slotLedgerProjector } from './slot-ledger.projector';

// The ledger reads only the ids of a created project.
const created = given.projectCreated;
const reserved = (workspaceId: string, projectId: string) =>
  ({ type: 'workspace.project_slot_reserved', data: { workspace_id: workspaceId, project_id: projectId } }) as const;
const released = (workspaceId: string, projectId: string) =>
  ({ type: 'workspace.project_slot_released', data: { workspace_id: workspaceId, project_id: projectId } }) as const;
const deleted = (id: string, workspaceId: string) =>
  ({ type: 'project.deleted', data: { id, workspace_id: workspaceId, deleted: 300 } }) as const;

/**
 * A ledger document of a project of ws_1, put by the event at `seq`: since when it is pending
 * (`reserved_at`) or deleted (`deleted_at`), the time that event was recorded.
 */
const ledger = (since: 'reserved_at' | 'deleted_at', projectId: string, seq: number) => ({
  id: projectId,
  workspaceId: 'ws_1',
  seq,
  version: 0,
  doc: { project_id: projectId, workspace_id: 'ws_1', [since]: T0 + seq },
});
const pending = (projectId: string, seq: number) => ledger('reserved_at', projectId, seq);
const deletedProject = (projectId: string, seq: number) => ledger('deleted_at', projectId, seq);

/**
 * The ledger the slot reconciler reads: what a unit of work started and has not (yet) finished.
 * Each document is put by the first event of a pair and removed by the second.
 */
describe('slot ledger projector: given events -> pending and held slots, deleted projects', () => {
  const projection = projectorSpec(slotLedgerProjector);
  const { record } = projection;

  it('a reservation without its project is pending, since the time it was recorded', async () => {
    await projection.given(record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')));

    await projection.expectDocuments({ [SLOTS_PENDING]: [pending('prj_1', 1)] });
  });

  it('the project created after its reservation closes it', async () => {
    await projection.given(
      record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      record(workspaceStream('ws_1'), reserved('ws_1', 'prj_2')),
      record(projectStream('prj_1'), created('prj_1', 'ws_1')),
    );

    await projection.expectDocuments({ [SLOTS_PENDING]: [pending('prj_2', 2)] });
  });

  it('a deleted project holds its slot until released, and stays listed as deleted', async () => {
    await projection.given(
      record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      record(projectStream('prj_1'), created('prj_1', 'ws_1')),
      record(workspaceStream('ws_1'), reserved('ws_1', 'prj_2')),
      record(projectStream('prj_2'), created('prj_2', 'ws_1')),
      record(projectStream('prj_1'), deleted('prj_1', 'ws_1')),
      record(projectStream('prj_2'), deleted('prj_2', 'ws_1')),
      record(workspaceStream('ws_1'), released('ws_1', 'prj_1')),
    );

    await projection.expectDocuments({
      [SLOTS_HELD_BY_DELETED]: [deletedProject('prj_2', 6)],
      [DELETED_PROJECTS]: [deletedProject('prj_1', 5), deletedProject('prj_2', 6)],
    });
  });

  it('an abandoned creation is a deleted project holding no slot; its release closes the reservation', async () => {
    await projection.given(
      record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      record(projectStream('prj_1'), {
        type: 'project.creation_abandoned',
        data: { id: 'prj_1', workspace_id: 'ws_1', abandoned: 300 },
      }),
      record(workspaceStream('ws_1'), released('ws_1', 'prj_1')),
    );

    await projection.expectDocuments({ [DELETED_PROJECTS]: [deletedProject('prj_1', 2)] });
  });

  it('a job created after its project was deleted marks the deleted project with its position; one created before does not', async () => {
    await projection.given(
      record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      record(projectStream('prj_1'), created('prj_1', 'ws_1')),
      record(jobStream('job_1'), given.jobCreated('job_1', 'ws_1', 'prj_1')),
      record(projectStream('prj_1'), deleted('prj_1', 'ws_1')),
      record(workspaceStream('ws_1'), released('ws_1', 'prj_1')),
      record(jobStream('job_2'), given.jobCreated('job_2', 'ws_1', 'prj_1')),
    );

    const late = deletedProject('prj_1', 4);
    await projection.expectDocuments({ [DELETED_PROJECTS]: [{ ...late, doc: { ...late.doc, late_job_at: 6 } }] });
  });

  it('events of the workspace stream it does not handle write nothing', async () => {
    await projection.given(
      record(workspaceStream('ws_1'), {
        type: 'workspace.created',
        data: { id: 'ws_1', name: 'Acme', plan: 'pro', project_limit: 5, created: 100 },
      }),
    );

    await projection.expectDocuments({});
  });

  it('a redelivered history leaves the same ledger (no slot counted twice)', async () => {
    const events = [
      record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      record(workspaceStream('ws_1'), reserved('ws_1', 'prj_2')),
      record(projectStream('prj_2'), created('prj_2', 'ws_1')),
      record(projectStream('prj_2'), deleted('prj_2', 'ws_1')),
    ];
    await projection.expectRedeliveriesChangeNothing(events, [events[0], events[3]], events);
    expect(await projection.store.count(SLOTS_PENDING, { workspaceId: 'ws_1' })).toBe(1);
    expect(await projection.store.count(SLOTS_HELD_BY_DELETED, { workspaceId: 'ws_1' })).toBe(1);
  });

  it("another workspace's ledger is kept under that workspace", async () => {
    await projection.given(
      record(workspaceStream('ws_1'), reserved('ws_1', 'prj_1')),
      record(workspaceStream('ws_2'), reserved('ws_2', 'prj_9')),
      record(projectStream('prj_9'), created('prj_9', 'ws_2')),
      record(projectStream('prj_9'), deleted('prj_9', 'ws_2')),
    );

    expect(await projection.ids(SLOTS_PENDING, 'ws_1')).toEqual(['prj_1']);
    expect(await projection.ids(SLOTS_PENDING, 'ws_2')).toEqual([]);
    expect(await projection.ids(DELETED_PROJECTS, 'ws_1')).toEqual([]);
    expect(await projection.ids(SLOTS_HELD_BY_DELETED, 'ws_2')).toEqual(['prj_9']);
  });
});
