import { Query } from '@nestjs/cqrs';
import { HistoryEntry } from '../history-entry';

/** Who recorded an event: `operator`, or the id of a member (`usr_...`) or an API key (`key_...`). */
export type AuditActor = 'operator' | string;

export interface AuditFilter {
  /** Absent: every workspace (operators and auditors only). */
  workspaceId?: string;
  types?: string[];
  actor?: AuditActor;
  /** The request that wrote the events (also their correlation id: the service records the same value). */
  requestId?: string;
  /** Inclusive bounds on recorded_at (ms). */
  from?: number;
  to?: number;
  /** `desc`: newest first. Default `asc`: store order. */
  order?: 'asc' | 'desc';
  cursor?: string;
}

/** An entry of the audit feed with the workspace it belongs to. */
export type AuditEntry = HistoryEntry & { workspace_id: string };

export interface AuditEventsPage {
  events: AuditEntry[];
  count: number;
  cursor: string | null;
}

/**
 * The audit feed, filtered, one page (50 entries) in store order or newest first. Each filter
 * reads an index of the audit projection (audit.projector.ts); entries as GET /events shows them,
 * plus their workspace, personal data opened or shown as erased.
 */
export class ListAuditEventsQuery extends Query<AuditEventsPage> {
  constructor(readonly filter: AuditFilter) {
    super();
  }
}

/**
 * Every event one request wrote, across every stream it touched, in store order (events without
 * a workspace are not in the audit feed).
 */
export class ListRequestEventsQuery extends Query<{ events: AuditEntry[]; count: number }> {
  constructor(readonly requestId: string) {
    super();
  }
}
