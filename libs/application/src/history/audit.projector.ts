import { RecordedEvent } from '../ports/event-store.port';
import { WriteOp } from '../ports/read-model.port';
import { Projector } from '../projections/projector';
import { toHistoryEntry } from './history-entry';

export const AUDIT_EVENTS = 'audit_events';

/**
 * The workspace-wide audit feed (GET /events): every event of a workspace, in store order,
 * indexed by type and time. Operator-level events without a workspace are not listed.
 * Internal bookkeeping (project slots) is included: auditors see everything that was recorded.
 */
export const auditProjector: Projector = {
  name: 'audit',
  collections: [{ name: AUDIT_EVENTS, workspaceIndexes: ['type', 'recorded_at'] }],
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
