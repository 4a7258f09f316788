import { setImmediate } from 'node:timers/promises';
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore, RecordedEvent, START } from '../../ports/event-store.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { redactSecrets } from '../history-entry';
import { ExportEventsQuery } from './export-events.query';

const PAGE = 1000;

@QueryHandler(ExportEventsQuery)
export class ExportEventsHandler implements IQueryHandler<ExportEventsQuery, AsyncIterable<string>> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ source }: ExportEventsQuery): Promise<AsyncIterable<string>> {
    const events = 'stream' in source ? this.streamEvents(source.stream) : this.workspaceEvents(source.workspaceId);
    return this.lines(events);
  }

  private async *lines(events: AsyncIterable<RecordedEvent>): AsyncGenerator<string> {
    for await (const event of events) yield `${JSON.stringify(await this.record(event))}\n`;
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

  private async *workspaceEvents(workspaceId: string): AsyncGenerator<RecordedEvent> {
    let after = START;
    for (;;) {
      const page = await this.events.readAll({ after, maxCount: PAGE });
      if (page.length === 0) return;
      for (const event of page) if (event.metadata.workspaceId === workspaceId) yield event;
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
