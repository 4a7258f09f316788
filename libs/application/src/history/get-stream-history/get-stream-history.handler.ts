import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { EVENT_STORE, EventStore } from '../../ports/event-store.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { decodeCursor, encodeCursor, PAGE_SIZE } from '../../shared/pagination';
import { revealedEntry, toHistoryEntry } from '../history-entry';
import { GetStreamHistoryQuery, HistoryPage } from './get-stream-history.query';

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
      history: await Promise.all(page.map((event) => revealedEntry(this.vault, toHistoryEntry(event)))),
      count: page.length,
      cursor: found.length > PAGE_SIZE ? encodeCursor(page[page.length - 1].revision) : null,
    };
  }
}
