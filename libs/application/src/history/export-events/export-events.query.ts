import { Query } from '@nestjs/cqrs';
import { AuditActor } from '../list-audit-events/list-audit-events.query';

/** One aggregate stream's events, every event of a workspace, or those of every workspace. */
export type ExportSource = { stream: string } | { workspaceId: string } | { allWorkspaces: true };

/** Narrows an export as the audit feed's filters do; `after` resumes it. */
export interface ExportFilter {
  types?: string[];
  actor?: AuditActor;
  requestId?: string;
  /** Inclusive bounds on the recorded time (ms). */
  from?: number;
  to?: number;
  /** Only events after this store position: the `position` of the last line received. */
  after?: number;
}

/**
 * The events of a stream, a workspace or all workspaces, oldest first, as NDJSON lines for
 * auditors: credentials removed, sealed personal data opened or shown as erased. Each line carries
 * its store position, so an interrupted export resumes with `after` set to the last one received.
 * The lines are read as they are consumed, so an export of any size holds one page of events at a
 * time. Across workspaces, operator-level events without a workspace are left out, as in the feed.
 */
export class ExportEventsQuery extends Query<AsyncIterable<string>> {
  constructor(
    readonly source: ExportSource,
    readonly filter: ExportFilter = {},
  ) {
    super();
  }
}
