import { RecordedEvent } from '../ports/event-store.port';
import { WriteOp } from '../ports/read-model.port';
import { Projector } from '../projections/projector';
import { toHistoryEntry } from './history-entry';

export const AUDIT_EVENTS = 'audit_events';

/**
 * The audit feed (GET /events, the operators' GET /admin/events, the dashboard's audit trail):
 * every event of a workspace, in store order, indexed by type and time within a workspace, and by
 * request id (a value of one workspace, so one index serves a lookup within one or across all).
 * The other filters (actor, the feed across workspaces) read in list order and keep what
 * matches: each index costs every append one more entry on the write path, and these lists are
 * read by people, not by the API's hot paths (docs/performance.md, "The audit feed's indexes").
 * Operator-level events without a workspace are not listed. Internal bookkeeping (project slots)
 * is included: auditors see everything that was recorded.
 */
export const auditProjector: Projector = {
  name: 'audit',
  collections: [
    {
      name: AUDIT_EVENTS,
      workspaceIndexes: ['type', 'recorded_at'],
      orderedIndexes: ['request_id'],
      listedAcrossWorkspaces: 'scanned',
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
