import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
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
import { CreateJobInput } from '@app/domain';
import { parseAsOf } from '../http/as-of';
import { definedOnly } from '../http/defined-only';
import { Caller, Ctx } from '../http/request-context.decorator';
import { AssignPilotsDto, UnassignPilotsDto } from './assign-pilots.dto';
import { CreateJobDto } from './create-job.dto';
import { singleQueryValue } from './query-params';
import { UpdateJobDto } from './update-job.dto';

/** Jobs of a project (spec 4.2), their occurrences and their pilot assignments. */
@Controller('projects/:projectId/jobs')
export class JobsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  create(@Ctx() context: CommandContext, @Param('projectId') projectId: string, @Body() body: CreateJobDto) {
    return this.commands.execute(new CreateJobCommand(context, projectId, definedOnly(body) as CreateJobInput));
  }

  @Get()
  list(@Caller() caller: Principal, @Param('projectId') projectId: string, @Query('cursor') cursor?: string) {
    return this.queries.execute(new ListJobsQuery(caller.workspaceId, projectId, singleQueryValue('cursor', cursor)));
  }

  /** With `?as_of=<ms>`, the job as it was then, rebuilt from its events. */
  @Get(':jobId')
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
  async update(
    @Ctx() context: CommandContext,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Body() body: UpdateJobDto,
  ) {
    await this.commands.execute(new UpdateJobCommand(context, projectId, jobId, definedOnly(body)));
    return { message: 'Job updated successfully' };
  }

  @Delete(':jobId')
  @HttpCode(204)
  async remove(@Ctx() context: CommandContext, @Param('projectId') projectId: string, @Param('jobId') jobId: string) {
    await this.commands.execute(new DeleteJobCommand(context, projectId, jobId));
  }

  @Post(':jobId/assign')
  @HttpCode(200)
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
  unassign(
    @Ctx() context: CommandContext,
    @Param('projectId') projectId: string,
    @Param('jobId') jobId: string,
    @Body() body: UnassignPilotsDto,
  ): Promise<UnassignPilotsResult> {
    return this.commands.execute(new UnassignPilotsCommand(context, projectId, jobId, body.pilots));
  }

  /** Not in the spec, which keeps occurrence records out of sight; documented in docs/jobs.md. */
  @Get(':jobId/occurrences')
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
