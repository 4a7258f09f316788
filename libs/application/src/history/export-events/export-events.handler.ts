import { setImmediate } from 'node:timers/promises';
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { validationError } from '@app/domain';
import { EVENT_STORE, EventStore, RecordedEvent, START } from '../../ports/event-store.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { redactSecrets } from '../history-entry';
import { FROM_AFTER_TO } from '../list-audit-events/list-audit-events.handler';
import { ExportEventsQuery, ExportFilter } from './export-events.query';

const PAGE = 1000;

@QueryHandler(ExportEventsQuery)
export class ExportEventsHandler implements IQueryHandler<ExportEventsQuery, AsyncIterable<string>> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ source, filter }: ExportEventsQuery): Promise<AsyncIterable<string>> {
    if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to) {
      throw validationError(FROM_AFTER_TO);
    }
    const events =
      'stream' in source
        ? this.streamEvents(source.stream)
        : this.storeEvents(filter.after ?? START, 'workspaceId' in source ? source.workspaceId : null);
    return this.lines(events, exportPredicate(filter));
  }

  private async *lines(
    events: AsyncIterable<RecordedEvent>,
    wanted: (event: RecordedEvent) => boolean,
  ): AsyncGenerator<string> {
    for await (const event of events) if (wanted(event)) yield `${JSON.stringify(await this.record(event))}\n`;
  }

  private async *streamEvents(streamId: string): AsyncGenerator<RecordedEvent> {
    let fromRevision = 0;
    for (;;) {
      const page = await this.events.readStream(streamId, { fromRevision, maxCount: PAGE });
      yield* page;
      if (page.length < PAGE) return;
      fromRevision = page[page.length - 1].revision + 1;
    }
  }

  /** One workspace's events, or (null) every event that belongs to a workspace, from `after` on. */
  private async *storeEvents(after: number, workspaceId: string | null): AsyncGenerator<RecordedEvent> {
    for (;;) {
      const page = await this.events.readAll({ after, maxCount: PAGE });
      if (page.length === 0) return;
      for (const event of page) {
        const of = event.metadata.workspaceId;
        if (workspaceId === null ? of !== null : of === workspaceId) yield event;
      }
      after = page[page.length - 1].position;
      // A small workspace in a large store yields nothing for page after page, and the response's
      // backpressure (which turns the event loop) never comes: without this turn the export of its
      // events held every other request until the whole store had been read.
      await setImmediate();
    }
  }

  /** Credentials removed; sealed personal data opened, or shown as erased. */
  private async record(event: RecordedEvent) {
    return {
      id: event.id,
      stream: event.streamId,
      revision: event.revision,
      position: event.position,
      type: event.type,
      schema_version: event.schemaVersion,
      data: await this.vault.reveal(redactSecrets(event.data)),
      metadata: event.metadata,
    };
  }
}

/** The audit feed's filters, applied to each event as the export reads it. */
export function exportPredicate(filter: ExportFilter): (event: RecordedEvent) => boolean {
  const types = filter.types?.length ? new Set(filter.types) : null;
  return (event) => {
    const { metadata } = event;
    if (filter.after !== undefined && event.position <= filter.after) return false;
    if (types && !types.has(event.type)) return false;
    if (filter.requestId !== undefined && metadata.requestId !== filter.requestId) return false;
    if (filter.from !== undefined && metadata.recordedAt < filter.from) return false;
    if (filter.to !== undefined && metadata.recordedAt > filter.to) return false;
    if (filter.actor !== undefined) {
      const actor = metadata.actor;
      if (
        filter.actor === 'operator' ? actor.type !== 'operator' : actor.type === 'operator' || actor.id !== filter.actor
      )
        return false;
    }
    return true;
  };
}
