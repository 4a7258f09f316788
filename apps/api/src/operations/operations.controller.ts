import { setImmediate } from 'node:timers/promises';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import {
  EVENT_STORE,
  EventStore,
  DeadLetterKey,
  PersonalDataVault,
  ProjectionEngine,
  ProjectionMaintenance,
  ProjectorOnlyError,
  RebuildProgress,
  RecordedEvent,
  redactSecrets,
  START,
  UnknownDeadLetterError,
  UnknownProjectionError,
} from '@app/application';
import { mustBeString, notFound, validationError } from '@app/domain';
import { OperatorOnly } from '../http/auth.guard';
import { HttpProblem } from '../http/errors';
import { ApiErrors, ApiOperatorAuth } from '../openapi/decorators';
import { EXAMPLE } from '../openapi/schemas/common.schema';
import {
  DeadLetterListSchema,
  DeadLetterRetriedSchema,
  DeadLetterSkippedSchema,
  ExportedEventSchema,
  ProjectionStatusListSchema,
  RebuildStartedSchema,
  VerifyReportSchema,
} from '../openapi/schemas/operations.schema';
import { RebuildDto } from './rebuild-projections/rebuild-projections.dto';

const UNKNOWN_PROJECTION_EXAMPLE =
  'Unknown projection nope (known: workspaces, projects, audit, jobs, job_types, webhooks)';
const PROJECTION_STRING = mustBeString('projection');
const POSITION_POSITIVE = 'position must be a positive integer';

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
    private readonly engine: ProjectionEngine,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: PersonalDataVault,
  ) {}

  @Get('projections/dead-letters')
  @ApiOperation({
    summary: 'Events parked by a projection (dead letters)',
    description: 'Events a projector threw on: each projection parks its own and stays live. Retry or skip each one.',
  })
  @ApiQuery({ name: 'projection', required: false, type: String, description: 'Only this projection', example: 'jobs' })
  @ApiOkResponse({ type: DeadLetterListSchema })
  @ApiErrors({
    400: PROJECTION_STRING,
    404: UNKNOWN_PROJECTION_EXAMPLE,
  })
  async deadLetters(@Query('projection') projection?: unknown) {
    if (projection !== undefined) this.knownProjection(projection);
    return { dead_letters: await this.engine.listDeadLetters(projection as string | undefined) };
  }

  /** Reads the event again, runs the projector on it: applied (and gone) or failed (one more attempt). */
  @Post('projections/dead-letters/:projection/:position/retry')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Retry a dead letter',
    description:
      "Reads the event from the store again and runs its projection's projector on it. Applied: its writes land and the dead letter is removed. Failed again: the dead letter records the attempt and the new error. The writes land on the read model as it is now, after the later events.",
  })
  @ApiParam({ name: 'projection', type: String, description: 'The projection that parked the event', example: 'jobs' })
  @ApiParam({ name: 'position', type: 'integer', description: 'Store position of the parked event', example: 4711 })
  @ApiOkResponse({ type: DeadLetterRetriedSchema })
  @ApiErrors({
    400: POSITION_POSITIVE,
    404: 'No dead letter at position 4711 of projection jobs',
    409: projectorOnly('A dead-letter retry'),
  })
  async retryDeadLetter(@Param('projection') projection: string, @Param('position') position: string) {
    this.onProjector('A dead-letter retry');
    const result = await this.deadLetter(projection, position, (key) => this.engine.retryDeadLetter(key));
    return { outcome: result.outcome, dead_letter: result.deadLetter };
  }

  @Post('projections/dead-letters/:projection/:position/skip')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Skip a dead letter',
    description:
      'Removes the dead letter without applying its event (logged). The read model stays as it is; a rebuild replays everything.',
  })
  @ApiParam({ name: 'projection', type: String, description: 'The projection that parked the event', example: 'jobs' })
  @ApiParam({ name: 'position', type: 'integer', description: 'Store position of the parked event', example: 4711 })
  @ApiOkResponse({ type: DeadLetterSkippedSchema })
  @ApiErrors({
    400: POSITION_POSITIVE,
    404: 'No dead letter at position 4711 of projection jobs',
    409: projectorOnly('A dead-letter skip'),
  })
  async skipDeadLetter(@Param('projection') projection: string, @Param('position') position: string) {
    this.onProjector('A dead-letter skip');
    const letter = await this.deadLetter(projection, position, (key) => this.engine.skipDeadLetter(key));
    return { message: 'Dead letter skipped', dead_letter: letter };
  }

  /**
   * Rebuild, verify, retry and skip write the read models (or compare them at the live
   * checkpoint): only the projector runs them. A replica refuses with a 409 naming where to go,
   * instead of replaying "up to checkpoint 0" and swapping empty read models over the live ones.
   */
  private onProjector(operation: string): void {
    if (this.maintenance.role !== 'projector') throw new HttpProblem(409, projectorOnly(operation));
  }

  private knownProjection(projection: unknown): string {
    if (typeof projection !== 'string') throw validationError(PROJECTION_STRING);
    if (!this.engine.projector(projection)) {
      throw notFound(new UnknownProjectionError(projection, this.engine.projectorNames()).message);
    }
    return projection;
  }

  private async deadLetter<T>(
    projection: string,
    position: string,
    act: (key: DeadLetterKey) => Promise<T>,
  ): Promise<T> {
    if (!/^[1-9][0-9]{0,15}$/.test(position)) throw validationError(POSITION_POSITIVE);
    const key = { projection: this.knownProjection(projection), position: Number(position) };
    try {
      return await act(key);
    } catch (error) {
      if (error instanceof UnknownDeadLetterError) throw notFound(error.message);
      if (error instanceof ProjectorOnlyError) throw new HttpProblem(409, projectorOnly(error.operation));
      throw error;
    }
  }

  @Get('projections')
  @ApiOperation({
    summary: "Each projection's checkpoint, lag and rebuild progress",
    description:
      'The checkpoints as the projector stored them with the read models, so every process (projector or replica) reports the same; the lag in events. `role` says whether this process is the projector or a replica.',
  })
  @ApiOkResponse({ type: ProjectionStatusListSchema })
  async projections() {
    return { role: this.maintenance.role, projections: await this.maintenance.status() };
  }

  /** Starts rebuilding one projection (or all, one after the other) and answers at once. */
  @Post('projections/rebuild')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Rebuild projections (blue/green)',
    description:
      'Builds fresh copies beside the live read models while the API keeps serving, then swaps them in atomically. Answers at once; follow the progress with GET /v1/admin/projections.',
  })
  @ApiAcceptedResponse({ type: RebuildStartedSchema })
  @ApiErrors({
    400: mustBeString('name'),
    404: UNKNOWN_PROJECTION_EXAMPLE,
    409: projectorOnly('A rebuild'),
  })
  async rebuild(@Body() body: RebuildDto) {
    this.onProjector('A rebuild');
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
      if (error instanceof ProjectorOnlyError) throw new HttpProblem(409, projectorOnly(error.operation));
      throw error;
    }
    return { message: `Rebuilding ${names.join(', ')}`, projections: names, started };
  }

  @Post('events/verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify the read models against a replay of the event store',
    description: 'Reports every read-model document that is missing, unexpected or different.',
  })
  @ApiOkResponse({ type: VerifyReportSchema })
  @ApiErrors({ 409: projectorOnly('A verification') })
  async verify() {
    this.onProjector('A verification');
    try {
      return await this.maintenance.verify();
    } catch (error) {
      if (error instanceof ProjectorOnlyError) throw new HttpProblem(409, projectorOnly(error.operation));
      throw error;
    }
  }

  /** NDJSON of a workspace's or a stream's events, oldest first, secrets redacted, erased data erased. */
  @Get('events/export')
  @ApiOperation({
    summary: "Export a workspace's or a stream's events (NDJSON)",
    description: 'One JSON object per line, oldest first; give exactly one of `workspace_id` and `stream`.',
  })
  @ApiQuery({ name: 'workspace_id', required: false, type: String, example: EXAMPLE.workspaceId })
  @ApiQuery({
    name: 'stream',
    required: false,
    type: String,
    description: 'A stream id, e.g. `project-<id>`',
    example: `project-${EXAMPLE.projectId}`,
  })
  @ApiOkResponse({
    description: 'NDJSON: one ExportedEvent per line',
    content: { 'application/x-ndjson': { schema: { $ref: getSchemaPath(ExportedEventSchema) } } },
  })
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

/** The 409 of an operation only the projector runs, asked of a replica: where to send it instead. */
function projectorOnly(operation: string): string {
  return `${operation} runs only on the projector, the one process started with PROJECTIONS=inline; this process is an API replica (PROJECTIONS=external) and only reads the read models. Send it to the projector's admin API (CLI: --url http://<projector>:<port>)`;
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
    // A small workspace in a large store yields nothing for page after page, and the response's
    // backpressure (which turns the event loop) never comes: without this turn the export of its
    // events held every other request until the whole store had been read.
    await setImmediate();
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
