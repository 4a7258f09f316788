import { Readable } from 'node:stream';
import { Controller, Get, Param, Query, StreamableFile } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import {
  ExportEventsQuery,
  ExportSource,
  FROM_AFTER_TO,
  INVALID_CURSOR,
  ListAuditEventsQuery,
  ListRequestEventsQuery,
} from '@app/application';
import { validationError } from '@app/domain';
import { OperatorOnly, RequiresRole } from '../http/auth';
import { millisMessage, singleQueryValue } from '../http/query-params';
import { ApiErrors, ApiIdParam, ApiOperatorAuth } from '../openapi/decorators';
import { EXAMPLE } from '../openapi/schemas/common.schema';
import { AuditEventsPageSchema, RequestEventsSchema } from '../openapi/schemas/audit.schema';
import { ExportedEventSchema } from '../openapi/schemas/operations.schema';
import {
  ACTOR_FILTER,
  AFTER_FILTER,
  auditFilterOf,
  AuditQueryParams,
  EVENT_TYPES_FILTER,
  exportFilterOf,
  ORDER_FILTER,
  REQUEST_ID_FILTER,
  WORKSPACE_FILTER,
  workspaceParam,
} from './audit-filter';

const ONE_SOURCE =
  'Give at most one of workspace_id (or workspace) and stream, or a filter to export across workspaces';
const FILTER_ERRORS = [
  WORKSPACE_FILTER,
  EVENT_TYPES_FILTER,
  ACTOR_FILTER,
  REQUEST_ID_FILTER,
  millisMessage('from'),
  FROM_AFTER_TO,
] as const;

/** The audit feed's filters as the document lists them, shared by the feed and the export. */
function ApiAuditFilters(): MethodDecorator {
  const decorators = [
    ApiQuery({
      name: 'workspace',
      required: false,
      type: String,
      description: 'Only this workspace; omitted: every workspace',
      example: EXAMPLE.workspaceId,
    }),
    ApiQuery({
      name: 'type',
      required: false,
      type: String,
      description: 'Comma-separated event types',
      example: 'project.created,project.deleted',
    }),
    ApiQuery({
      name: 'actor',
      required: false,
      type: String,
      description: 'Who recorded the events: `operator`, a member id (`usr_...`) or an API key id (`key_...`)',
      example: EXAMPLE.apiKeyId,
    }),
    ApiQuery({
      name: 'request_id',
      required: false,
      type: String,
      description: 'The request that wrote the events (`x-request-id`; also their correlation id)',
      example: EXAMPLE.requestId,
    }),
    ApiQuery({
      name: 'from',
      required: false,
      type: 'integer',
      description: 'Recorded at or after (Unix time in milliseconds)',
      example: EXAMPLE.time,
    }),
    ApiQuery({
      name: 'to',
      required: false,
      type: 'integer',
      description: 'Recorded at or before (Unix time in milliseconds)',
      example: EXAMPLE.time + 86_400_000,
    }),
  ];
  return (target, key, descriptor) => {
    for (const decorate of decorators) decorate(target, key, descriptor);
  };
}

/**
 * The operators' and auditors' audit views: the feed across workspaces, one request's events
 * across the streams it touched, and resumable NDJSON exports. Read-only (GET) by design, so
 * a read-only operator credential may use every route here. API keys are refused like on every
 * /admin route.
 */
@ApiTags('Operator audit')
@ApiOperatorAuth()
@Controller('admin')
@OperatorOnly()
export class AuditController {
  constructor(private readonly queries: QueryBus) {}

  @Get('events')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: 'The audit feed across workspaces',
    description:
      'Every event that belongs to a workspace, 50 a page, in store order or newest first (`order=desc`), filtered by workspace, type, actor, request and time. Each filter reads an index of the audit projection.',
  })
  @ApiAuditFilters()
  @ApiQuery({ name: 'order', required: false, enum: ['asc', 'desc'], description: 'Default `asc` (store order)' })
  @ApiQuery({
    name: 'cursor',
    required: false,
    type: String,
    description: 'The `cursor` of the previous page, with the same filters and order.',
  })
  @ApiOkResponse({ type: AuditEventsPageSchema })
  @ApiErrors({ 400: [...FILTER_ERRORS, ORDER_FILTER, INVALID_CURSOR] })
  events(@Query() params: AuditQueryParams) {
    return this.queries.execute(new ListAuditEventsQuery(auditFilterOf(params, workspaceParam(params.workspace))));
  }

  @Get('requests/:requestId/events')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: "One request's events",
    description:
      'Every event one request wrote, across every stream it touched, in store order (the request id is also the correlation id of its events). An unknown request answers an empty list.',
  })
  @ApiIdParam('requestId', 'The request id (its `x-request-id`)', EXAMPLE.requestId)
  @ApiOkResponse({ type: RequestEventsSchema })
  @ApiErrors({ 400: REQUEST_ID_FILTER })
  requestEvents(@Param('requestId') requestId: string) {
    if (!/^[\x21-\x7e]{1,200}$/.test(requestId)) throw validationError(REQUEST_ID_FILTER);
    return this.queries.execute(new ListRequestEventsQuery(requestId));
  }

  /** NDJSON of a stream's, a workspace's or every workspace's events, oldest first, resumable. */
  @Get('events/export')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: 'Export events (NDJSON), filtered and resumable',
    description:
      'One JSON object per line, in store order, secrets redacted and erased data erased: a stream (`stream`), a workspace (`workspace_id` or `workspace`), or every workspace when only filters are given. Each line carries its store `position`: a cut-short export resumes with `after` set to the last position received.',
  })
  @ApiQuery({ name: 'workspace_id', required: false, type: String, example: EXAMPLE.workspaceId })
  @ApiQuery({
    name: 'stream',
    required: false,
    type: String,
    description: 'A stream id, e.g. `project-<id>`',
    example: `project-${EXAMPLE.projectId}`,
  })
  @ApiAuditFilters()
  @ApiQuery({
    name: 'after',
    required: false,
    type: 'integer',
    description: 'Resume after this store position (the `position` of the last line received)',
    example: 1042,
  })
  @ApiOkResponse({
    description: 'NDJSON: one ExportedEvent per line',
    content: { 'application/x-ndjson': { schema: { $ref: getSchemaPath(ExportedEventSchema) } } },
  })
  @ApiExtraModels(ExportedEventSchema)
  @ApiErrors({ 400: [ONE_SOURCE, ...FILTER_ERRORS, AFTER_FILTER] })
  async export(
    @Query() params: AuditQueryParams,
    @Query('workspace_id') workspaceId?: unknown,
    @Query('stream') stream?: unknown,
  ) {
    const filter = exportFilterOf(params);
    const workspace = singleQueryValue('workspace_id', workspaceId) ?? workspaceParam(params.workspace);
    const streamId = singleQueryValue('stream', stream);
    const filtered = Object.values(filter).some((value) => value !== undefined);
    if ((workspace !== undefined && streamId !== undefined) || (!workspace && !streamId && !filtered)) {
      throw validationError(ONE_SOURCE);
    }
    const source: ExportSource = streamId
      ? { stream: streamId }
      : workspace
        ? { workspaceId: workspace }
        : { allWorkspaces: true };
    const lines = await this.queries.execute(new ExportEventsQuery(source, filter));
    return new StreamableFile(Readable.from(lines), { type: 'application/x-ndjson' });
  }
}
