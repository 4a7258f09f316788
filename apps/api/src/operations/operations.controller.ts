import { Body, Controller, Get, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import {
  EVENT_STORE,
  EventStore,
  PersonalDataVault,
  ProjectionMaintenance,
  RebuildProgress,
  RecordedEvent,
  redactSecrets,
  START,
  UnknownProjectionError,
} from '@app/application';
import { notFound, validationError } from '@app/domain';
import { OperatorOnly } from '../http/auth.guard';
import { IsStringField, WhenPresent } from '../http/field-rules';

export class RebuildDto {
  @IsStringField('name')
  @WhenPresent()
  name?: string = undefined;
}

/**
 * Operator tools (CLI: `projections ...`, `events ...`): projection status and blue/green
 * rebuilds, verification of the read models against a replay, and NDJSON exports for auditors.
 */
@Controller('admin')
@OperatorOnly()
export class OperationsController {
  constructor(
    private readonly maintenance: ProjectionMaintenance,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: PersonalDataVault,
  ) {}

  @Get('projections')
  async projections() {
    return { projections: await this.maintenance.status() };
  }

  /** Starts rebuilding one projection (or all, one after the other) and answers at once. */
  @Post('projections/rebuild')
  @HttpCode(202)
  async rebuild(@Body() body: RebuildDto) {
    const names = body.name ? [body.name] : (await this.maintenance.status()).map((s) => s.name);
    const started: RebuildProgress[] = [];
    try {
      const first = this.maintenance.startRebuild(names[0]);
      this.maintenance.queue(names.slice(1));
      started.push(first.progress);
      // The others follow in turn, so a full rebuild never doubles the load.
      void names.slice(1).reduce(
        (previous, name) => previous.then(() => this.maintenance.startRebuild(name).done).catch(() => undefined),
        first.done.catch(() => undefined),
      );
    } catch (error) {
      if (error instanceof UnknownProjectionError) throw notFound(error.message);
      throw error;
    }
    return { message: `Rebuilding ${names.join(', ')}`, projections: names, started };
  }

  @Post('events/verify')
  @HttpCode(200)
  verify() {
    return this.maintenance.verify();
  }

  /** NDJSON of a workspace's or a stream's events, oldest first, secrets redacted, erased data erased. */
  @Get('events/export')
  async export(
    @Res() reply: FastifyReply,
    @Query('workspace_id') workspaceId?: unknown,
    @Query('stream') stream?: unknown,
  ) {
    if ((typeof workspaceId === 'string') === (typeof stream === 'string')) {
      throw validationError('Give exactly one of workspace_id or stream');
    }
    const { events, vault } = this;
    async function* lines(): AsyncGenerator<string> {
      const source =
        typeof stream === 'string' ? streamEvents(events, stream) : workspaceEvents(events, workspaceId as string);
      for await (const event of source) yield `${JSON.stringify(await exportRecord(vault, event))}\n`;
    }
    void reply.type('application/x-ndjson').send(Readable.from(lines()));
  }
}

async function* streamEvents(events: EventStore, streamId: string): AsyncGenerator<RecordedEvent> {
  let fromRevision = 0;
  for (;;) {
    const page = await events.readStream(streamId, { fromRevision, maxCount: 1000 });
    yield* page;
    if (page.length < 1000) return;
    fromRevision = page[page.length - 1].revision + 1;
  }
}

async function* workspaceEvents(events: EventStore, workspaceId: string): AsyncGenerator<RecordedEvent> {
  let after = START;
  for (;;) {
    const page = await events.readAll({ after, maxCount: 1000 });
    if (page.length === 0) return;
    for (const event of page) if (event.metadata.workspaceId === workspaceId) yield event;
    after = page[page.length - 1].position;
  }
}

/** Credentials removed; sealed personal data opened, or shown as erased. */
async function exportRecord(vault: PersonalDataVault, event: RecordedEvent) {
  return {
    id: event.id,
    stream: event.streamId,
    revision: event.revision,
    position: event.position,
    type: event.type,
    schema_version: event.schemaVersion,
    data: await vault.reveal(redactSecrets(event.data)),
    metadata: event.metadata,
  };
}
