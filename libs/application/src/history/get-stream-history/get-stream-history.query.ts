import { Query } from '@nestjs/cqrs';
import { RecordedEvent } from '../../ports/event-store.port';
import { HistoryEntry } from '../history-entry';

export interface HistoryPage {
  history: HistoryEntry[];
  count: number;
  cursor: string | null;
}

/**
 * The events of one aggregate stream, oldest first, paginated by revision. The stream must belong
 * to the caller's workspace (and pass `belongs`, e.g. a job's project), or it answers exactly
 * like a stream that never existed. Deleted resources keep their history: deletion is an event.
 */
export class GetStreamHistoryQuery extends Query<HistoryPage> {
  constructor(
    readonly workspaceId: string,
    readonly streamId: string,
    readonly notFoundMessage: string,
    readonly cursor?: string,
    readonly belongs: (first: RecordedEvent) => boolean = () => true,
  ) {
    super();
  }
}
