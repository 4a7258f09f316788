import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CommandContext, CreateJobTypeCommand, DeleteJobTypeCommand, ListJobTypesQuery, Principal } from '@app/application';
import { Caller, Ctx } from '../http/request-context.decorator';
import { singleQueryValue } from '../jobs/query-params';
import { CreateJobTypeDto } from './create-job-type.dto';

/** Job types (spec 4.3): the predefined catalogue plus the workspace's custom types. */
@Controller('job-types')
export class JobTypesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  list(@Caller() caller: Principal, @Query('cursor') cursor?: string) {
    return this.queries.execute(new ListJobTypesQuery(caller.workspaceId, singleQueryValue('cursor', cursor)));
  }

  @Post()
  @HttpCode(201)
  create(@Ctx() context: CommandContext, @Body() body: CreateJobTypeDto) {
    return this.commands.execute(new CreateJobTypeCommand(context, { name: body.name, icon: body.icon }));
  }

  @Delete(':jobTypeId')
  @HttpCode(204)
  async remove(@Ctx() context: CommandContext, @Param('jobTypeId') jobTypeId: string): Promise<void> {
    await this.commands.execute(new DeleteJobTypeCommand(context, jobTypeId));
  }
}
