import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CommandContext,
  CreateJobTypeCommand,
  DeleteJobTypeCommand,
  ListJobTypesQuery,
  Principal,
} from '@app/application';
import { JOB_TYPE_MESSAGES as M, JOB_TYPE_NOT_FOUND, PREDEFINED_JOB_TYPE_NOT_DELETABLE } from '@app/domain';
import { Caller, Ctx } from '../http/auth';
import { singleQueryValue } from '../http/query-params';
import { ApiCursorQuery, ApiErrors, ApiIdParam, ApiKeyAuth } from '../openapi/decorators';
import { EXAMPLE, IdBody } from '../openapi/schemas/common.schema';
import { JobTypeListSchema } from '../openapi/schemas/job-types.schema';
import { CreateJobTypeDto } from './create-job-type/create-job-type.dto';

/** Job types (docs/api.md, Job types): the predefined catalogue plus the workspace's custom types. */
@ApiTags('Job types')
@ApiKeyAuth()
@Controller('job-types')
export class JobTypesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List job types',
    description: 'The predefined catalogue first, then the custom types in creation order, 50 a page.',
  })
  @ApiCursorQuery()
  @ApiOkResponse({ type: JobTypeListSchema })
  @ApiErrors({ 400: 'cursor is invalid' })
  list(@Caller() caller: Principal, @Query('cursor') cursor?: string) {
    return this.queries.execute(new ListJobTypesQuery(caller.workspaceId, singleQueryValue('cursor', cursor)));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a custom job type' })
  @ApiCreatedResponse({ type: IdBody, example: { id: EXAMPLE.jobTypeId } })
  @ApiErrors({ 400: [M.nameRequired, M.nameLength, M.iconString, M.iconLength] })
  create(@Ctx() context: CommandContext, @Body() body: CreateJobTypeDto) {
    return this.commands.execute(new CreateJobTypeCommand(context, { name: body.name, icon: body.icon }));
  }

  @Delete(':jobTypeId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a custom job type',
    description: 'Jobs that use it keep it as their type; no job can newly take it.',
  })
  @ApiIdParam('jobTypeId', 'Job type id', EXAMPLE.jobTypeId)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ 400: PREDEFINED_JOB_TYPE_NOT_DELETABLE, 404: JOB_TYPE_NOT_FOUND })
  async remove(@Ctx() context: CommandContext, @Param('jobTypeId') jobTypeId: string): Promise<void> {
    await this.commands.execute(new DeleteJobTypeCommand(context, jobTypeId));
  }
}
