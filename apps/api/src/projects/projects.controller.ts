import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import {
  ArchiveProjectCommand,
  CommandContext,
  CreateProjectCommand,
  DeleteProjectCommand,
  GetProjectAsOfQuery,
  GetProjectQuery,
  ListProjectsQuery,
  Principal,
  UpdateProjectCommand,
} from '@app/application';
import {
  isStatus,
  OTHER_STATUS_REASON_REQUIRED,
  PROJECT_LIMIT_REACHED,
  PROJECT_ANSWERS,
  PROJECT_MESSAGES as M,
  PROJECT_NOT_FOUND,
  STATUS_MESSAGE,
  Status,
  validationError,
  WORKSPACE_NOT_FOUND,
} from '@app/domain';
import { AS_OF_MESSAGE, parseAsOf } from '../http/as-of';
import { IfMatch, tagged } from '../http/conditional';
import { Caller, Ctx } from '../http/auth';
import { definedOnly } from '../http/defined-only';
import { singleQueryValue } from '../http/query-params';
import {
  ApiAsOfQuery,
  ApiCursorQuery,
  ApiErrors,
  ApiIdParam,
  ApiIfMatch,
  ApiIfNoneMatch,
  ApiJsonBody,
  ApiKeyAuth,
  ETAG_HEADER,
} from '../openapi/decorators';
import { EXAMPLE, IdBody, MessageBody } from '../openapi/schemas/common.schema';
import { ProjectListSchema, ProjectSchema } from '../openapi/schemas/projects.schema';
import { CreateProjectDto } from './create-project/create-project.dto';
import { ArchiveProjectDto } from './archive-project/archive-project.dto';
import { UpdateProjectDto } from './update-project/update-project.dto';

@ApiTags('Projects')
@ApiKeyAuth()
@Controller('projects')
export class ProjectsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a project' })
  @ApiJsonBody(CreateProjectDto, {
    planned: {
      summary: 'A planned project',
      value: {
        name: 'Dam inspection',
        description: 'Spillway and crest survey',
        status: 'planned',
        start_date: '2026-12-01',
        end_date: '2026-12-31',
        external_id: 'DAM-2026-014',
      },
    },
    other: {
      summary: 'Status `other`, with its reason',
      value: {
        name: 'Bridge survey',
        description: 'Deck and bearings',
        status: 'other',
        other_status_reason: 'Waiting for the landowner',
        start_date: '2027-01-15',
      },
    },
  })
  @ApiCreatedResponse({ type: IdBody, example: { id: EXAMPLE.projectId } })
  @ApiErrors({
    400: [
      M.nameRequired,
      M.nameLength,
      M.startDateRequired,
      M.startDateFormat,
      M.endDateAfterStart,
      M.descriptionRequired,
      STATUS_MESSAGE,
      OTHER_STATUS_REASON_REQUIRED,
      M.externalIdLength,
    ],
    404: WORKSPACE_NOT_FOUND,
    429: PROJECT_LIMIT_REACHED,
  })
  create(@Ctx() context: CommandContext, @Body() body: CreateProjectDto) {
    return this.commands.execute(new CreateProjectCommand(context, definedOnly(body)));
  }

  @Get()
  @ApiOperation({
    summary: 'List projects',
    description: 'Non-archived projects by default, in creation order, 50 a page.',
  })
  @ApiQuery({
    name: 'status',
    required: false,
    type: String,
    description: 'Comma-separated status values to filter by',
    example: 'planned,in_progress',
  })
  @ApiQuery({
    name: 'archived',
    required: false,
    enum: ['true', 'false'],
    description: '`true` lists only archived projects; default: only non-archived ones',
  })
  @ApiCursorQuery()
  @ApiOkResponse({ type: ProjectListSchema })
  @ApiErrors({ 400: [STATUS_MESSAGE, M.archivedFilter, 'cursor is invalid'] })
  list(
    @Caller() caller: Principal,
    @Query('status') status?: string,
    @Query('archived') archived?: string,
    @Query('cursor') cursor?: string,
  ) {
    return this.queries.execute(
      new ListProjectsQuery(caller.workspaceId, {
        statuses: parseStatuses(status),
        archived: parseArchived(archived),
        cursor: singleQueryValue('cursor', cursor),
      }),
    );
  }

  /** The ETag is the revision read with the project, so it always describes the body it comes with. */
  @Get(':projectId')
  @ApiOperation({
    summary: 'Get a project',
    description: 'With `as_of`, the project as it was at that instant (then without an ETag).',
  })
  @ApiIdParam('projectId', 'Project id', EXAMPLE.projectId)
  @ApiAsOfQuery('project')
  @ApiIfNoneMatch()
  @ApiOkResponse({ type: ProjectSchema, headers: ETAG_HEADER })
  @ApiErrors({ 400: AS_OF_MESSAGE, 404: PROJECT_NOT_FOUND })
  async get(@Caller() caller: Principal, @Param('projectId') projectId: string, @Query('as_of') asOf?: unknown) {
    // `?as_of=<ms>`: the project as it was then, rebuilt from its events (no ETag: not current).
    const at = parseAsOf(asOf);
    if (at !== undefined) return this.queries.execute(new GetProjectAsOfQuery(caller.workspaceId, projectId, at));
    const { project, revision } = await this.queries.execute(new GetProjectQuery(caller.workspaceId, projectId));
    return tagged(project, revision);
  }

  @Patch(':projectId')
  @ApiOperation({
    summary: 'Update a project',
    description: 'Only the supplied fields change; null clears `end_date`, `external_id` and `laanc_number`.',
  })
  @ApiIdParam('projectId', 'Project id', EXAMPLE.projectId)
  @ApiIfMatch()
  @ApiOkResponse({ type: MessageBody, headers: ETAG_HEADER, example: { message: PROJECT_ANSWERS.updated } })
  @ApiErrors({
    400: [
      M.nameLength,
      M.descriptionLength,
      M.startDateFormat,
      M.endDateAfterStart,
      STATUS_MESSAGE,
      OTHER_STATUS_REASON_REQUIRED,
      M.externalIdLength,
      M.laancNumberLength,
    ],
    404: PROJECT_NOT_FOUND,
  })
  async update(
    @Ctx() context: CommandContext,
    @Param('projectId') projectId: string,
    @Body() body: UpdateProjectDto,
    @IfMatch() expectedRevision?: number,
  ) {
    const { revision } = await this.commands.execute(
      new UpdateProjectCommand(context, projectId, definedOnly(body), expectedRevision),
    );
    return tagged({ message: PROJECT_ANSWERS.updated }, revision);
  }

  @Delete(':projectId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a project',
    description: 'Removes its jobs, occurrences and assignments too; irreversible. Its history stays readable.',
  })
  @ApiIdParam('projectId', 'Project id', EXAMPLE.projectId)
  @ApiIfMatch()
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ 404: PROJECT_NOT_FOUND })
  async remove(
    @Ctx() context: CommandContext,
    @Param('projectId') projectId: string,
    @IfMatch() expectedRevision?: number,
  ): Promise<void> {
    await this.commands.execute(new DeleteProjectCommand(context, projectId, expectedRevision));
  }

  @Post(':projectId/archive')
  @HttpCode(200)
  @ApiOperation({ summary: 'Archive or unarchive a project' })
  @ApiIdParam('projectId', 'Project id', EXAMPLE.projectId)
  @ApiIfMatch()
  @ApiOkResponse({ type: MessageBody, headers: ETAG_HEADER, example: { message: PROJECT_ANSWERS.archived } })
  @ApiErrors({ 400: M.archivedBoolean, 404: PROJECT_NOT_FOUND })
  async archive(
    @Ctx() context: CommandContext,
    @Param('projectId') projectId: string,
    @Body() body: ArchiveProjectDto,
    @IfMatch() expectedRevision?: number,
  ) {
    const { revision } = await this.commands.execute(
      new ArchiveProjectCommand(context, projectId, body.archived, expectedRevision),
    );
    return tagged({ message: body.archived ? PROJECT_ANSWERS.archived : PROJECT_ANSWERS.unarchived }, revision);
  }
}

function parseStatuses(raw: unknown): Status[] | undefined {
  const value = singleQueryValue('status', raw);
  if (value === undefined || value === '') return undefined;
  const statuses = value.split(',').map((s) => s.trim());
  if (!statuses.every(isStatus)) throw validationError(STATUS_MESSAGE);
  return statuses as Status[];
}

function parseArchived(raw: unknown): boolean {
  const value = singleQueryValue('archived', raw);
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw validationError(M.archivedFilter);
}
