import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { notFound, validationError } from '@app/domain';
import { EVENT_STORE, EventStore, RecordedEvent } from '../ports/event-store.port';
import { Filter, READ_MODEL_STORE, ReadModelStore } from '../ports/read-model.port';
import { decodeCursor, encodeCursor, PAGE_SIZE, toPage } from '../shared/pagination';
import { PersonalDataVault } from '../privacy/personal-data-vault';
import { AUDIT_EVENTS } from './audit.projector';
import { HistoryEntry, toHistoryEntry } from './history-entry';

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

@QueryHandler(GetStreamHistoryQuery)
export class GetStreamHistoryHandler implements IQueryHandler<GetStreamHistoryQuery, HistoryPage> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute(query: GetStreamHistoryQuery): Promise<HistoryPage> {
    const after = decodeCursor(query.cursor);
    const [first] = await this.events.readStream(query.streamId, { maxCount: 1 });
    if (!first || first.metadata.workspaceId !== query.workspaceId || !query.belongs(first)) {
      throw notFound(query.notFoundMessage);
    }
    const fromRevision = after === undefined ? 0 : after + 1;
    const found = await this.events.readStream(query.streamId, { fromRevision, maxCount: PAGE_SIZE + 1 });
    const page = found.slice(0, PAGE_SIZE);
    return {
      history: await Promise.all(page.map((event) => revealed(this.vault, toHistoryEntry(event)))),
      count: page.length,
      cursor: found.length > PAGE_SIZE ? encodeCursor(page[page.length - 1].revision) : null,
    };
  }
}

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

@QueryHandler(ListWorkspaceEventsQuery)
export class ListWorkspaceEventsHandler implements IQueryHandler<ListWorkspaceEventsQuery, AuditFeedPage> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ workspaceId, filter }: ListWorkspaceEventsQuery): Promise<AuditFeedPage> {
    if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to) {
      throw validationError('from must not be after to');
    }
    const where: Filter = {};
    if (filter.types?.length) where.type = { in: filter.types };
    if (filter.from !== undefined || filter.to !== undefined) where.recorded_at = { gte: filter.from, lte: filter.to };
    const found = await this.read.find<HistoryEntry>(AUDIT_EVENTS, {
      workspaceId,
      where,
      afterSeq: decodeCursor(filter.cursor),
      limit: PAGE_SIZE + 1,
    });
    const page = toPage(found);
    const events = await Promise.all(page.items.map((entry) => revealed(this.vault, entry)));
    return { events, count: events.length, cursor: page.cursor };
  }
}

/** Sealed personal data in a change is shown opened, or as erased. */
async function revealed(vault: PersonalDataVault, entry: HistoryEntry): Promise<HistoryEntry> {
  return { ...entry, change: await vault.reveal(entry.change) };
}

export const HISTORY_HANDLERS = [GetStreamHistoryHandler, ListWorkspaceEventsHandler];
