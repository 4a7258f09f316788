import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { GetStreamHistoryQuery, ListWorkspaceEventsQuery, Principal } from '@app/application';
import {
  isPredefinedJobType,
  JOB_NOT_FOUND,
  JOB_TYPE_NOT_FOUND,
  jobStream,
  jobTypeStream,
  PROJECT_NOT_FOUND,
  projectStream,
  validationError,
  WEBHOOK_NOT_FOUND,
} from '@app/domain';
import { millisMessage, queryMillis, singleQueryValue } from '../http/query-params';
import { Caller } from '../http/auth';
import { ApiCursorQuery, ApiErrors, ApiIdParam, ApiKeyAuth } from '../openapi/decorators';
import { EXAMPLE } from '../openapi/schemas/common.schema';
import { AuditFeedPageSchema, HistoryPageSchema } from '../openapi/schemas/history.schema';

const EVENT_TYPES_FILTER = 'type must be a comma-separated list of event types';

/**
 * Auditors' read side: each resource's event history (kept after deletion) and the workspace's
 * audit feed. Read scope; another workspace's resource answers like a missing one.
 */
@ApiTags('History')
@ApiKeyAuth()
@Controller()
export class HistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get('projects/:projectId/history')
  @ApiOperation({
    summary: "A project's history",
    description:
      'Its events in order, 50 a page; still available after the project is deleted (deletion is itself an event).',
  })
  @ApiIdParam('projectId', 'Project id', EXAMPLE.projectId)
  @ApiCursorQuery()
  @ApiOkResponse({ type: HistoryPageSchema })
  @ApiErrors({ 400: ['cursor is invalid', 'cursor must be given once'], 404: PROJECT_NOT_FOUND })
  projectHistory(
    @Caller() caller: Principal,
    @Param('projectId') projectId: string,
    @Query('cursor') cursor?: unknown,
  ) {
    return this.queries.execute(
      new GetStreamHistoryQuery(
        caller.workspaceId,
        projectStream(projectId),
        PROJECT_NOT_FOUND,
        singleQueryValue('cursor', cursor),
      ),
    );
  }

  @Get('projects/:projectId/jobs/:jobId/history')
  @ApiOperation({
    summary: "A job's history",
    description: 'Its events in order, 50 a page; still available after the job is deleted.',
  })
  @ApiIdParam('projectId', 'Project id', EXAMPLE.projectId)
  @ApiIdParam('jobId', 'Job id', EXAMPLE.jobId)
  @ApiCursorQuery()
  @ApiOkResponse({ type: HistoryPageSchema })
  @ApiErrors({ 400: 'cursor is invalid', 404: JOB_NOT_FOUND })
  jobHistory(
    @Caller() caller: Principal,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Query('cursor') cursor?: unknown,
  ) {
    return this.queries.execute(
      new GetStreamHistoryQuery(
        caller.workspaceId,
        jobStream(jobId),
        JOB_NOT_FOUND,
        singleQueryValue('cursor', cursor),
        (first) => (first.data as { project_id?: string }).project_id === projectId,
      ),
    );
  }

  /** Predefined job types are part of the catalogue, not of any history: they have no events. */
  @Get('job-types/:jobTypeId/history')
  @ApiOperation({
    summary: "A custom job type's history",
    description: 'Predefined job types have no events: their history is empty.',
  })
  @ApiIdParam('jobTypeId', 'Job type id', EXAMPLE.jobTypeId)
  @ApiCursorQuery()
  @ApiOkResponse({ type: HistoryPageSchema })
  @ApiErrors({ 400: 'cursor is invalid', 404: JOB_TYPE_NOT_FOUND })
  jobTypeHistory(
    @Caller() caller: Principal,
    @Param('jobTypeId') jobTypeId: string,
    @Query('cursor') cursor?: unknown,
  ) {
    if (isPredefinedJobType(jobTypeId)) return { history: [], count: 0, cursor: null };
    return this.queries.execute(
      new GetStreamHistoryQuery(
        caller.workspaceId,
        jobTypeStream(jobTypeId),
        JOB_TYPE_NOT_FOUND,
        singleQueryValue('cursor', cursor),
      ),
    );
  }

  @Get('webhooks/:webhookId/history')
  @ApiOperation({
    summary: "A webhook subscription's history",
    description:
      'Its changes of state in order: creation, updates and re-activations, automatic pausing, secret rotations, deletion. Delivery attempts are in the attempt log (`/deliveries`), not here. Secrets never appear.',
  })
  @ApiIdParam('webhookId', 'Webhook id', EXAMPLE.webhookId)
  @ApiCursorQuery()
  @ApiOkResponse({ type: HistoryPageSchema })
  @ApiErrors({ 400: 'cursor is invalid', 404: WEBHOOK_NOT_FOUND })
  webhookHistory(
    @Caller() caller: Principal,
    @Param('webhookId') webhookId: string,
    @Query('cursor') cursor?: unknown,
  ) {
    return this.queries.execute(
      new GetStreamHistoryQuery(
        caller.workspaceId,
        `webhook-${webhookId}`,
        WEBHOOK_NOT_FOUND,
        singleQueryValue('cursor', cursor),
      ),
    );
  }

  @Get('events')
  @ApiOperation({
    summary: "The workspace's audit feed",
    description: 'Every event of the workspace in store order, 50 a page, filterable by type and time.',
  })
  @ApiQuery({
    name: 'type',
    required: false,
    type: String,
    description: 'Comma-separated event types',
    example: 'project.created,project.deleted',
  })
  @ApiQuery({
    name: 'from',
    required: false,
    type: 'integer',
    description: 'Recorded at or after (Unix time in milliseconds)',
    example: EXAMPLE.time,
  })
  @ApiQuery({
    name: 'to',
    required: false,
    type: 'integer',
    description: 'Recorded at or before (Unix time in milliseconds)',
    example: EXAMPLE.time + 86_400_000,
  })
  @ApiCursorQuery()
  @ApiOkResponse({ type: AuditFeedPageSchema })
  @ApiErrors({
    400: [EVENT_TYPES_FILTER, millisMessage('from'), 'cursor is invalid'],
  })
  events(
    @Caller() caller: Principal,
    @Query('type') type?: unknown,
    @Query('from') from?: unknown,
    @Query('to') to?: unknown,
    @Query('cursor') cursor?: unknown,
  ) {
    const types = singleQueryValue('type', type)
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (types?.some((t) => !/^[a-z_]+\.[a-z_]+$/.test(t))) throw validationError(EVENT_TYPES_FILTER);
    return this.queries.execute(
      new ListWorkspaceEventsQuery(caller.workspaceId, {
        types,
        from: queryMillis('from', from),
        to: queryMillis('to', to),
        cursor: singleQueryValue('cursor', cursor),
      }),
    );
  }
}
