import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ArchiveProjectCommand,
  CommandContext,
  CreateProjectCommand,
  DeleteProjectCommand,
  GetProjectQuery,
  ListProjectsQuery,
  Principal,
  UpdateProjectCommand,
} from '@app/application';
import { isStatus, STATUS_MESSAGE, Status, validationError } from '@app/domain';
import { Caller, Ctx } from '../http/request-context.decorator';
import { definedOnly } from '../http/defined-only';
import { CreateProjectDto } from './create-project.dto';
import { ArchiveProjectDto, UpdateProjectDto } from './update-project.dto';

@Controller('projects')
export class ProjectsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  create(@Ctx() context: CommandContext, @Body() body: CreateProjectDto) {
    return this.commands.execute(new CreateProjectCommand(context, definedOnly(body)));
  }

  @Get()
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
        cursor: single('cursor', cursor),
      }),
    );
  }

  @Get(':projectId')
  get(@Caller() caller: Principal, @Param('projectId') projectId: string) {
    return this.queries.execute(new GetProjectQuery(caller.workspaceId, projectId));
  }

  @Patch(':projectId')
  async update(@Ctx() context: CommandContext, @Param('projectId') projectId: string, @Body() body: UpdateProjectDto) {
    await this.commands.execute(new UpdateProjectCommand(context, projectId, definedOnly(body)));
    return { message: 'Project updated successfully' };
  }

  @Delete(':projectId')
  @HttpCode(204)
  async remove(@Ctx() context: CommandContext, @Param('projectId') projectId: string): Promise<void> {
    await this.commands.execute(new DeleteProjectCommand(context, projectId));
  }

  @Post(':projectId/archive')
  @HttpCode(200)
  async archive(@Ctx() context: CommandContext, @Param('projectId') projectId: string, @Body() body: ArchiveProjectDto) {
    await this.commands.execute(new ArchiveProjectCommand(context, projectId, body.archived));
    return { message: body.archived ? 'Project archived successfully' : 'Project unarchived successfully' };
  }
}

/** A query parameter given twice arrives as an array; this API takes each once. */
function single(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationError(`${name} must be given once`);
  return value;
}

function parseStatuses(raw: unknown): Status[] | undefined {
  const value = single('status', raw);
  if (value === undefined || value === '') return undefined;
  const statuses = value.split(',').map((s) => s.trim());
  if (!statuses.every(isStatus)) throw validationError(STATUS_MESSAGE);
  return statuses as Status[];
}

function parseArchived(raw: unknown): boolean {
  const value = single('archived', raw);
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw validationError('archived must be true or false');
}
