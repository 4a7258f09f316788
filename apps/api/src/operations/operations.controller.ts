import { Body, Controller, Get, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiPropertyOptional,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
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
import { ApiErrors, ApiOperatorAuth } from '../openapi/decorators';
import { EXAMPLE } from '../openapi/schemas/common.schema';
import {
  ExportedEventSchema,
  ProjectionStatusListSchema,
  RebuildStartedSchema,
  VerifyReportSchema,
} from '../openapi/schemas/operations.schema';

export class RebuildDto {
  @ApiPropertyOptional({ type: String, description: 'One projection (see GET /v1/admin/projections); absent = all, one after the other', example: 'projects' })
  @IsStringField('name')
  @WhenPresent()
  name?: string = undefined;
}

/**
 * Operator tools (CLI: `projections ...`, `events ...`): projection status and blue/green
 * rebuilds, verification of the read models against a replay, and NDJSON exports for auditors.
 */
@ApiTags('Operator tools')
@ApiOperatorAuth()
@Controller('admin')
@OperatorOnly()
export class OperationsController {
  constructor(
    private readonly maintenance: ProjectionMaintenance,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: PersonalDataVault,
  ) {}

  @Get('projections')
  @ApiOperation({ summary: "Each projection's checkpoint, lag and rebuild progress" })
  @ApiOkResponse({ type: ProjectionStatusListSchema })
  async projections() {
    return { projections: await this.maintenance.status() };
  }

  /** Starts rebuilding one projection (or all, one after the other) and answers at once. */
  @Post('projections/rebuild')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Rebuild projections (blue/green)',
    description: 'Builds fresh copies beside the live read models while the API keeps serving, then swaps them in atomically. Answers at once; follow the progress with GET /v1/admin/projections.',
  })
  @ApiAcceptedResponse({ type: RebuildStartedSchema })
  @ApiErrors({ 400: 'name must be a string', 404: 'Unknown projection nope (known: workspaces, projects, audit, jobs, job_types, webhooks)' })
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
  @ApiOperation({ summary: 'Verify the read models against a replay of the event store', description: 'Reports every read-model document that is missing, unexpected or different.' })
  @ApiOkResponse({ type: VerifyReportSchema })
  verify() {
    return this.maintenance.verify();
  }

  /** NDJSON of a workspace's or a stream's events, oldest first, secrets redacted, erased data erased. */
  @Get('events/export')
  @ApiOperation({
    summary: "Export a workspace's or a stream's events (NDJSON)",
    description: 'One JSON object per line, oldest first; give exactly one of `workspace_id` and `stream`.',
  })
  @ApiQuery({ name: 'workspace_id', required: false, type: String, example: EXAMPLE.workspaceId })
  @ApiQuery({ name: 'stream', required: false, type: String, description: 'A stream id, e.g. `project-<id>`', example: `project-${EXAMPLE.projectId}` })
  @ApiOkResponse({ description: 'NDJSON: one ExportedEvent per line', content: { 'application/x-ndjson': { schema: { $ref: getSchemaPath(ExportedEventSchema) } } } })
  @ApiExtraModels(ExportedEventSchema)
  @ApiErrors({ 400: 'Give exactly one of workspace_id or stream' })
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
