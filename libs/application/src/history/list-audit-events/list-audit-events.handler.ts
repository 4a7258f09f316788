import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { validationError } from '@app/domain';
import { Filter, FindQuery, READ_MODEL_STORE, ReadModelStore, StoredDocument } from '../../ports/read-model.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { decodeCursor, encodeCursor, PAGE_SIZE } from '../../shared/pagination';
import { AUDIT_EVENTS } from '../audit.projector';
import { HistoryEntry, revealedEntry } from '../history-entry';
import {
  AuditEntry,
  AuditEventsPage,
  AuditFilter,
  ListAuditEventsQuery,
  ListRequestEventsQuery,
} from './list-audit-events.query';

export const FROM_AFTER_TO = 'from must not be after to';

/** The read-model query of a filtered audit feed: one index walk in list order, either way. */
export function auditFind(filter: AuditFilter, limit: number): FindQuery {
  if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to) {
    throw validationError(FROM_AFTER_TO);
  }
  const where: Filter = {};
  if (filter.types?.length) where.type = { in: filter.types };
  if (filter.from !== undefined || filter.to !== undefined) where.recorded_at = { gte: filter.from, lte: filter.to };
  if (filter.actor === 'operator') where['actor.type'] = 'operator';
  else if (filter.actor !== undefined) where['actor.id'] = filter.actor;
  if (filter.requestId !== undefined) where.request_id = filter.requestId;
  const descending = filter.order === 'desc';
  const position = decodeCursor(filter.cursor);
  return {
    workspaceId: filter.workspaceId,
    where,
    limit,
    descending,
    ...(descending ? { beforeSeq: position } : { afterSeq: position }),
  };
}

async function entriesOf(vault: PersonalDataVault, found: StoredDocument<HistoryEntry>[]): Promise<AuditEntry[]> {
  return Promise.all(
    found.map(async (stored) => ({ ...(await revealedEntry(vault, stored.doc)), workspace_id: stored.workspaceId! })),
  );
}

@QueryHandler(ListAuditEventsQuery)
export class ListAuditEventsHandler implements IQueryHandler<ListAuditEventsQuery, AuditEventsPage> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ filter }: ListAuditEventsQuery): Promise<AuditEventsPage> {
    const found = await this.read.find<HistoryEntry>(AUDIT_EVENTS, auditFind(filter, PAGE_SIZE + 1));
    const page = found.slice(0, PAGE_SIZE);
    const events = await entriesOf(this.vault, page);
    const cursor = found.length > PAGE_SIZE ? encodeCursor(page[page.length - 1].seq) : null;
    return { events, count: events.length, cursor };
  }
}

/** A request writes a handful of events; pages of this size keep a runaway one bounded per read. */
const REQUEST_PAGE = 500;

@QueryHandler(ListRequestEventsQuery)
export class ListRequestEventsHandler implements IQueryHandler<ListRequestEventsQuery> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ requestId }: ListRequestEventsQuery): Promise<{ events: AuditEntry[]; count: number }> {
    const events: AuditEntry[] = [];
    let afterSeq: number | undefined;
    for (;;) {
      const found = await this.read.find<HistoryEntry>(AUDIT_EVENTS, {
        where: { request_id: requestId },
        afterSeq,
        limit: REQUEST_PAGE,
      });
      events.push(...(await entriesOf(this.vault, found)));
      if (found.length < REQUEST_PAGE) return { events, count: events.length };
      afterSeq = found[found.length - 1].seq;
    }
  }
}
