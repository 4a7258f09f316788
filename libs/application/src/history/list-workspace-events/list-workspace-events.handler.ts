import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { validationError } from '@app/domain';
import { Filter, READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { AUDIT_EVENTS } from '../audit.projector';
import { HistoryEntry, revealedEntry } from '../history-entry';
import { AuditFeedPage, ListWorkspaceEventsQuery } from './list-workspace-events.query';

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
    const events = await Promise.all(page.items.map((entry) => revealedEntry(this.vault, entry)));
    return { events, count: events.length, cursor: page.cursor };
  }
}
