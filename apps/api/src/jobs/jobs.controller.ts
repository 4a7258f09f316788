import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AssignPilotsCommand,
  AssignPilotsResult,
  CommandContext,
  CreateJobCommand,
  DeleteJobCommand,
  GetJobAsOfQuery,
  GetJobQuery,
  ListJobOccurrencesQuery,
  ListJobsQuery,
  Principal,
  UnassignPilotsCommand,
  UnassignPilotsResult,
  UpdateJobCommand,
} from '@app/application';
import {
  ASSIGNMENT_MESSAGES,
  CreateJobInput,
  JOB_ANSWERS,
  JOB_MESSAGES as M,
  JOB_NOT_FOUND,
  OTHER_STATUS_REASON_REQUIRED,
  PROJECT_NOT_FOUND,
  STATUS_MESSAGE,
} from '@app/domain';
import { AS_OF_MESSAGE, parseAsOf } from '../http/as-of';
import { definedOnly } from '../http/defined-only';
import { Caller, Ctx } from '../http/auth';
import { ApiAsOfQuery, ApiCursorQuery, ApiErrors, ApiIdParam, ApiJsonBody, ApiKeyAuth } from '../openapi/decorators';
import { EXAMPLE, IdBody, MessageBody } from '../openapi/schemas/common.schema';
import {
  AssignPilotsResultSchema,
  JobListSchema,
  JobSchema,
  OccurrenceListSchema,
  UnassignPilotsResultSchema,
} from '../openapi/schemas/jobs.schema';
import { AssignPilotsDto } from './assign-pilots/assign-pilots.dto';
import { CreateJobDto } from './create-job/create-job.dto';
import { singleQueryValue } from '../http/query-params';
import { UpdateJobDto } from './update-job/update-job.dto';
import { UnassignPilotsDto } from './unassign-pilots/unassign-pilots.dto';

/** Jobs of a project (docs/api.md, Jobs), their occurrences and their pilot assignments. */
@ApiTags('Jobs')
@ApiKeyAuth()
@ApiIdParam('projectId', 'Project id', EXAMPLE.projectId)
@Controller('projects/:projectId/jobs')
export class JobsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a job',
    description: 'Defaults: `status` `not_started`, `priority` `medium`; every other optional field null.',
  })
  @ApiJsonBody(CreateJobDto, {
    one_time: {
      summary: 'A one-time inspection',
      value: {
        name: 'Roof survey, block C',
        type: 'roof_inspection',
        job_pattern: 'one_time',
        start_date: '2028-03-01',
        latitude: 55.6761,
        longitude: 12.5683,
        capture_types: ['drone_inspection', 'orthomosaic'],
      },
    },
    recurring: {
      summary: 'Every other week, on Mondays and Thursdays, two flights each',
      value: {
        name: 'Blade inspection T-07',
        type: 'wind_turbine',
        job_pattern: 'recurring',
        start_date: '2028-03-01',
        end_date: '2028-12-31',
        priority: 'high',
        recurring_frequency: 'weekly',
        recurring_interval: 2,
        selected_days_of_week: [1, 4],
        flights_per_occurrence: 2,
      },
    },
  })
  @ApiCreatedResponse({ type: IdBody, example: { id: EXAMPLE.jobId } })
  @ApiErrors({
    400: [
      M.nameRequired,
      M.nameLength,
      M.typeRequired,
      M.jobPattern,
      M.startDateRequired,
      M.startDateFormat,
      M.startDateTooOld,
      M.endDateOnOrAfterStart,
      M.latitudeRange,
      M.longitudeRange,
      M.coordinatesTogether,
      OTHER_STATUS_REASON_REQUIRED,
      M.externalIdLength,
      M.typeUnknown,
    ],
    404: PROJECT_NOT_FOUND,
  })
  create(@Ctx() context: CommandContext, @Param('projectId') projectId: string, @Body() body: CreateJobDto) {
    return this.commands.execute(new CreateJobCommand(context, projectId, definedOnly(body) as CreateJobInput));
  }

  @Get()
  @ApiOperation({ summary: "List a project's jobs", description: 'In creation order, 50 a page.' })
  @ApiCursorQuery()
  @ApiOkResponse({ type: JobListSchema })
  @ApiErrors({ 400: 'cursor is invalid', 404: PROJECT_NOT_FOUND })
  list(@Caller() caller: Principal, @Param('projectId') projectId: string, @Query('cursor') cursor?: string) {
    return this.queries.execute(new ListJobsQuery(caller.workspaceId, projectId, singleQueryValue('cursor', cursor)));
  }

  /** With `?as_of=<ms>`, the job as it was then, rebuilt from its events. */
  @Get(':jobId')
  @ApiOperation({ summary: 'Get a job', description: 'With `as_of`, the job as it was at that instant.' })
  @ApiIdParam('jobId', 'Job id', EXAMPLE.jobId)
  @ApiAsOfQuery('job')
  @ApiOkResponse({ type: JobSchema })
  @ApiErrors({ 400: AS_OF_MESSAGE, 404: [JOB_NOT_FOUND, PROJECT_NOT_FOUND] })
  get(
    @Caller() caller: Principal,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Query('as_of') asOf?: unknown,
  ) {
    const at = parseAsOf(asOf);
    if (at !== undefined) return this.queries.execute(new GetJobAsOfQuery(caller.workspaceId, projectId, jobId, at));
    return this.queries.execute(new GetJobQuery(caller.workspaceId, projectId, jobId));
  }

  @Patch(':jobId')
  @ApiOperation({
    summary: 'Update a job',
    description:
      'Only the supplied fields change; null clears the nullable ones. Changing the pattern or a recurring field regenerates the occurrences.',
  })
  @ApiIdParam('jobId', 'Job id', EXAMPLE.jobId)
  @ApiOkResponse({ type: MessageBody, example: { message: JOB_ANSWERS.updated } })
  @ApiErrors({
    400: [
      M.nameLength,
      STATUS_MESSAGE,
      M.priority,
      M.startDateFormat,
      M.endDateNotBeforeStart,
      M.latitudeRange,
      M.coordinatesTogetherOnUpdate,
      OTHER_STATUS_REASON_REQUIRED,
    ],
    404: [JOB_NOT_FOUND, PROJECT_NOT_FOUND],
  })
  async update(
    @Ctx() context: CommandContext,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Body() body: UpdateJobDto,
  ) {
    await this.commands.execute(new UpdateJobCommand(context, projectId, jobId, definedOnly(body)));
    return { message: JOB_ANSWERS.updated };
  }

  @Delete(':jobId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a job', description: 'Removes the job and all its occurrences; irreversible.' })
  @ApiIdParam('jobId', 'Job id', EXAMPLE.jobId)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ 404: [JOB_NOT_FOUND, PROJECT_NOT_FOUND] })
  async remove(@Ctx() context: CommandContext, @Param('projectId') projectId: string, @Param('jobId') jobId: string) {
    await this.commands.execute(new DeleteJobCommand(context, projectId, jobId));
  }

  @Post(':jobId/assign')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Assign pilots to every occurrence of a job',
    description: 'All or nothing: any id that is not a pilot of the workspace fails the request.',
  })
  @ApiIdParam('jobId', 'Job id', EXAMPLE.jobId)
  @ApiOkResponse({ type: AssignPilotsResultSchema })
  @ApiErrors({
    400: [ASSIGNMENT_MESSAGES.assignPilotsRequired, ASSIGNMENT_MESSAGES.pilotIds, ASSIGNMENT_MESSAGES.pilotsCount],
    404: [JOB_NOT_FOUND, ASSIGNMENT_MESSAGES.pilotsNotFound, PROJECT_NOT_FOUND],
  })
  assign(
    @Ctx() context: CommandContext,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Body() body: AssignPilotsDto,
  ): Promise<AssignPilotsResult> {
    return this.commands.execute(new AssignPilotsCommand(context, projectId, jobId, body.pilots));
  }

  @Post(':jobId/unassign')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove pilot assignments from every occurrence of a job' })
  @ApiIdParam('jobId', 'Job id', EXAMPLE.jobId)
  @ApiOkResponse({ type: UnassignPilotsResultSchema })
  @ApiErrors({
    400: [ASSIGNMENT_MESSAGES.unassignPilotsRequired, ASSIGNMENT_MESSAGES.pilotIds, ASSIGNMENT_MESSAGES.pilotsCount],
    404: [JOB_NOT_FOUND, ASSIGNMENT_MESSAGES.noAssignments, PROJECT_NOT_FOUND],
  })
  unassign(
    @Ctx() context: CommandContext,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Body() body: UnassignPilotsDto,
  ): Promise<UnassignPilotsResult> {
    return this.commands.execute(new UnassignPilotsCommand(context, projectId, jobId, body.pilots));
  }

  /** Not in the API reference, which keeps occurrence records out of sight; documented in docs/jobs.md. */
  @Get(':jobId/occurrences')
  @ApiOperation({
    summary: "List a job's occurrences",
    description: 'Derived from its schedule, by date, 50 a page (docs/jobs.md).',
  })
  @ApiIdParam('jobId', 'Job id', EXAMPLE.jobId)
  @ApiCursorQuery()
  @ApiOkResponse({ type: OccurrenceListSchema })
  @ApiErrors({ 400: 'cursor is invalid', 404: [JOB_NOT_FOUND, PROJECT_NOT_FOUND] })
  occurrences(
    @Caller() caller: Principal,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Query('cursor') cursor?: string,
  ) {
    return this.queries.execute(
      new ListJobOccurrencesQuery(caller.workspaceId, projectId, jobId, singleQueryValue('cursor', cursor)),
    );
  }
}
