import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Query, Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  GetDeliveryOverviewQuery,
  GetProjectionStatusQuery,
  ListDeadLettersQuery,
  POSITION_POSITIVE,
  projectorOnlyMessage,
  RebuildProjectionsCommand,
  RetryDeadLetterCommand,
  SkipDeadLetterCommand,
  VerifyReadModelsCommand,
} from '@app/application';
import { mustBeString, validationError } from '@app/domain';
import { OperatorOnly, RequiresRole } from '../http/auth';
import { ApiErrors, ApiOperatorAuth } from '../openapi/decorators';
import {
  DeadLetterListSchema,
  DeadLetterRetriedSchema,
  DeadLetterSkippedSchema,
  DeliveryOverviewSchema,
  ProjectionStatusListSchema,
  RebuildStartedSchema,
  VerifyReportSchema,
} from '../openapi/schemas/operations.schema';
import { RebuildDto } from './rebuild-projections/rebuild-projections.dto';

const UNKNOWN_PROJECTION_EXAMPLE =
  'Unknown projection nope (known: workspaces, projects, audit, jobs, job_types, webhooks)';
const PROJECTION_STRING = mustBeString('projection');

/**
 * Operator tools (CLI: `projections ...`, `events ...`): projection status and blue/green
 * rebuilds, verification of the read models against a replay (exports: audit/audit.controller.ts).
 * Each route checks the shape of what the request carries and hands the rest to its command or
 * query (libs/application/src/projections).
 */
@ApiTags('Operator tools')
@ApiOperatorAuth()
@Controller('admin')
@OperatorOnly()
export class OperationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('projections/dead-letters')
  @RequiresRole('auditor')
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
  deadLetters(@Query('projection') projection?: unknown) {
    if (projection !== undefined && typeof projection !== 'string') throw validationError(PROJECTION_STRING);
    return this.queries.execute(new ListDeadLettersQuery(projection));
  }

  /** Reads the event again, runs the projector on it: applied (and gone) or failed (one more attempt). */
  @Post('projections/dead-letters/:projection/:position/retry')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Retry a dead letter',
    description:
      "Reads the event from the store again and runs its projection's projector on it. Applied: its writes land and the dead letter is removed. Failed again: the dead letter records the attempt and the new error. The writes land on the read model as it is now, after the later events.",
  })
  @ApiDeadLetterAction('A dead-letter retry', DeadLetterRetriedSchema)
  retryDeadLetter(@Param('projection') projection: string, @Param('position') position: string) {
    return this.commands.execute(new RetryDeadLetterCommand(projection, position));
  }

  @Post('projections/dead-letters/:projection/:position/skip')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Skip a dead letter',
    description:
      'Removes the dead letter without applying its event (logged). The read model stays as it is; a rebuild replays everything.',
  })
  @ApiDeadLetterAction('A dead-letter skip', DeadLetterSkippedSchema)
  skipDeadLetter(@Param('projection') projection: string, @Param('position') position: string) {
    return this.commands.execute(new SkipDeadLetterCommand(projection, position));
  }

  @Get('projections')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: "Each projection's checkpoint, lag and rebuild progress",
    description:
      'The checkpoints as the projector stored them with the read models, so every process (projector or replica) reports the same; the lag in events. `role` says whether this process is the projector or a replica.',
  })
  @ApiOkResponse({ type: ProjectionStatusListSchema })
  projections() {
    return this.queries.execute(new GetProjectionStatusQuery());
  }

  /** Starts rebuilding one projection (or all, one after the other) and answers at once. */
  @Post('projections/rebuild')
  @RequiresRole('operator')
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
    409: projectorOnlyMessage('A rebuild'),
  })
  rebuild(@Body() body: RebuildDto) {
    return this.commands.execute(new RebuildProjectionsCommand(body.name));
  }

  @Get('deliveries')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: 'Webhook deliveries across every workspace',
    description:
      "The backlog (pending deliveries, and those waiting for a retry), the paused and failing subscriptions with their workspace, URL, failure count and pause reason, and every subscription's attempts per hour over the last 24 hours (succeeded and failed).",
  })
  @ApiOkResponse({ type: DeliveryOverviewSchema })
  deliveries() {
    return this.queries.execute(new GetDeliveryOverviewQuery());
  }

  @Post('events/verify')
  @RequiresRole('auditor')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify the read models against a replay of the event store',
    description: 'Reports every read-model document that is missing, unexpected or different.',
  })
  @ApiOkResponse({ type: VerifyReportSchema })
  @ApiErrors({ 409: projectorOnlyMessage('A verification') })
  verify() {
    return this.commands.execute(new VerifyReadModelsCommand());
  }
}

/** What the document says of every action on one dead letter: its path, its answer, its refusals. */
function ApiDeadLetterAction(action: string, answer: Type<unknown>) {
  return applyDecorators(
    ApiParam({
      name: 'projection',
      type: String,
      description: 'The projection that parked the event',
      example: 'jobs',
    }),
    ApiParam({ name: 'position', type: 'integer', description: 'Store position of the parked event', example: 4711 }),
    ApiOkResponse({ type: answer }),
    ApiErrors({
      400: POSITION_POSITIVE,
      404: 'No dead letter at position 4711 of projection jobs',
      409: projectorOnlyMessage(action),
    }),
  );
}
