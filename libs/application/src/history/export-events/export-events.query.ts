import { Query } from '@nestjs/cqrs';

/** One aggregate stream's events, or every event of a workspace. */
export type ExportSource = { stream: string } | { workspaceId: string };

/**
 * The events of a stream or a workspace, oldest first, as NDJSON lines for auditors: credentials
 * removed, sealed personal data opened or shown as erased. The lines are read as they are
 * consumed, so an export of any size holds one page of events at a time.
 */
export class ExportEventsQuery extends Query<AsyncIterable<string>> {
  constructor(readonly source: ExportSource) {
    super();
  }
}
