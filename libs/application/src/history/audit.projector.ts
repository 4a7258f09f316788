import { RecordedEvent } from '../ports/event-store.port';
import { WriteOp } from '../ports/read-model.port';
import { Projector } from '../projections/projector';
import { toHistoryEntry } from './history-entry';

export const AUDIT_EVENTS = 'audit_events';

/**
 * The audit feed (GET /events, the operators' GET /admin/events, the dashboard's audit trail):
 * every event of a workspace, in store order, indexed by type, time and kind of actor within a
 * workspace, and by actor id and request id (values that belong to one workspace) within one or
 * across all, in list order either way; listed across workspaces for operators. Operator-level
 * events without a workspace are not listed. Internal bookkeeping (project slots) is included:
 * auditors see everything that was recorded.
 */
export const auditProjector: Projector = {
  name: 'audit',
  collections: [
    {
      name: AUDIT_EVENTS,
      workspaceIndexes: ['type', 'recorded_at', 'actor.type'],
      orderedIndexes: ['actor.id', 'request_id'],
      listedAcrossWorkspaces: true,
    },
  ],
  project(event: RecordedEvent): WriteOp[] {
    const workspaceId = event.metadata.workspaceId;
    if (!workspaceId) return [];
    const entry = toHistoryEntry(event);
    return [
      {
        op: 'put',
        collection: AUDIT_EVENTS,
        id: event.id,
        workspaceId,
        seq: event.position,
        doc: { ...entry },
      },
    ];
  },
};
