import { Query } from '@nestjs/cqrs';
import { HistoryEntry } from '../history-entry';

export interface AuditFeedFilter {
  types?: string[];
  /** Inclusive bounds on recorded_at (ms). */
  from?: number;
  to?: number;
  cursor?: string;
}

export interface AuditFeedPage {
  events: HistoryEntry[];
  count: number;
  cursor: string | null;
}

/** GET /events: the workspace's audit feed in store order, filterable by type and time. */
export class ListWorkspaceEventsQuery extends Query<AuditFeedPage> {
  constructor(
    readonly workspaceId: string,
    readonly filter: AuditFeedFilter,
  ) {
    super();
  }
}
