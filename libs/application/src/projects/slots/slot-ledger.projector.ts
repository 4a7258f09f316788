import { JobEvent, ProjectEvent, WorkspaceEvent } from '@app/domain';
import { RecordedEvent } from '../../ports/event-store.port';
import { WriteOp } from '../../ports/read-model.port';
import { Projector } from '../../projections/projector';

/** Slots reserved for a project that has not (yet) been created. */
export const SLOTS_PENDING = 'slots_pending';
/** Deleted projects whose slot has not (yet) been released. */
export const SLOTS_HELD_BY_DELETED = 'slots_held_by_deleted';
/**
 * Every deleted or abandoned project, by when. A job created in one after it was deleted (on a
 * store that appends stream by stream, a create-job whose check of the project passed before the
 * deletion was written) stamps its document with `late_job_at`, that job's store position.
 */
export const DELETED_PROJECTS = 'deleted_projects';

const HANDLES = [
  'workspace.project_slot_reserved',
  'workspace.project_slot_released',
  'project.created',
  'project.deleted',
  'project.creation_abandoned',
  'job.created',
] as const;
type Handled = Extract<WorkspaceEvent | ProjectEvent | JobEvent, { type: (typeof HANDLES)[number] }>;

/**
 * What the slot reconciler repairs (slot-reconciler.ts). A unit of work writes a reservation
 * before its project and a deletion before its release (on every store), so each document here is
 * put by the first event and removed by the second: on the embedded store, whose multi-stream
 * appends are atomic, both land in one batch and the collections stay empty; on EventStoreDB a
 * document that stays says a write stopped part way. A job created after its project's deletion
 * marks the deleted project's document: by the order of the events, not by the time the
 * projection got to them, so a projector that was down for long marks it all the same.
 */
export const slotLedgerProjector: Projector = {
  name: 'slot_ledger',
  collections: [
    { name: SLOTS_PENDING, indexes: ['reserved_at'] },
    { name: SLOTS_HELD_BY_DELETED, indexes: ['deleted_at'] },
    { name: DELETED_PROJECTS, indexes: ['deleted_at', 'late_job_at'] },
  ],
  handles: HANDLES,
  project(recorded: RecordedEvent): WriteOp[] {
    const event = recorded as unknown as Handled;
    const at = recorded.metadata.recordedAt;
    switch (event.type) {
      case 'workspace.project_slot_reserved': {
        const { workspace_id, project_id } = event.data;
        const doc = { project_id, workspace_id, reserved_at: at };
        return [
          {
            op: 'put',
            collection: SLOTS_PENDING,
            id: project_id,
            workspaceId: workspace_id,
            seq: recorded.position,
            doc,
          },
        ];
      }
      case 'workspace.project_slot_released':
        return [
          { op: 'delete', collection: SLOTS_PENDING, id: event.data.project_id },
          { op: 'delete', collection: SLOTS_HELD_BY_DELETED, id: event.data.project_id },
        ];
      case 'project.created':
        return [{ op: 'delete', collection: SLOTS_PENDING, id: event.data.id }];
      // Changes nothing unless the project is listed as deleted (a merge leaves a missing document missing).
      case 'job.created':
        return [
          {
            op: 'merge',
            collection: DELETED_PROJECTS,
            id: event.data.project_id,
            set: { late_job_at: recorded.position },
          },
        ];
      case 'project.deleted':
      case 'project.creation_abandoned': {
        const { id: project_id, workspace_id } = event.data;
        const doc = { project_id, workspace_id, deleted_at: at };
        const ops: WriteOp[] = [
          {
            op: 'put',
            collection: DELETED_PROJECTS,
            id: project_id,
            workspaceId: workspace_id,
            seq: recorded.position,
            doc,
          },
        ];
        if (event.type === 'project.deleted') {
          ops.push({
            op: 'put',
            collection: SLOTS_HELD_BY_DELETED,
            id: project_id,
            workspaceId: workspace_id,
            seq: recorded.position,
            doc,
          });
        }
        return ops;
      }
      default:
        return [];
    }
  },
};
