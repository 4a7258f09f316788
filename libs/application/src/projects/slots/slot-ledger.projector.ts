import { ProjectEvent, WorkspaceEvent } from '@app/domain';
import { RecordedEvent } from '../../ports/event-store.port';
import { WriteOp } from '../../ports/read-model.port';
import { Projector } from '../../projections/projector';

/** Slots reserved for a project that has not (yet) been created. */
export const SLOTS_PENDING = 'slots_pending';
/** Deleted projects whose slot has not (yet) been released. */
export const SLOTS_HELD_BY_DELETED = 'slots_held_by_deleted';
/** Every deleted or abandoned project, by when: where a job created late in a deleted project is looked for. */
export const DELETED_PROJECTS = 'deleted_projects';

const HANDLES = [
  'workspace.project_slot_reserved',
  'workspace.project_slot_released',
  'project.created',
  'project.deleted',
  'project.creation_abandoned',
] as const;
type Handled = Extract<WorkspaceEvent | ProjectEvent, { type: (typeof HANDLES)[number] }>;

/**
 * What the slot reconciler repairs (slot-reconciler.ts). A unit of work writes a reservation
 * before its project and a deletion before its release (on every store), so each document here is
 * put by the first event and removed by the second: on the embedded store, whose multi-stream
 * appends are atomic, both land in one batch and the collections stay empty; on EventStoreDB a
 * document that stays says a write stopped part way.
 */
export const slotLedgerProjector: Projector = {
  name: 'slot_ledger',
  collections: [
    { name: SLOTS_PENDING, indexes: ['reserved_at'] },
    { name: SLOTS_HELD_BY_DELETED, indexes: ['deleted_at'] },
    { name: DELETED_PROJECTS, indexes: ['deleted_at'] },
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
