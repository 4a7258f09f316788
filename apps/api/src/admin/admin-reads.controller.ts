import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  GetWorkspaceQuery,
  INVALID_CURSOR,
  ListApiKeysQuery,
  ListTeamQuery,
  ListWorkspacesQuery,
  WORKSPACE_SEARCH_MESSAGE,
} from '@app/application';
import { WORKSPACE_NOT_FOUND } from '@app/domain';
import { OperatorOnly, RequiresRole } from '../http/auth';
import { singleQueryValue } from '../http/query-params';
import { ApiCursorQuery, ApiErrors, ApiIdParam, ApiOperatorAuth } from '../openapi/decorators';
import {
  AdminApiKey,
  AdminApiKeyListSchema,
  AdminMemberListSchema,
  WorkspaceListItemSchema,
  WorkspaceListSchema,
} from '../openapi/schemas/admin-reads.schema';
import { EXAMPLE } from '../openapi/schemas/common.schema';

/**
 * The operator's reads (docs/operations.md, Reading the workspaces): workspaces with their usage,
 * a workspace's API keys (never a secret, nor its hash) and members, paginated like the API's
 * other lists. Auditors may call all of them.
 */
@ApiTags('Operator')
@ApiOperatorAuth()
@Controller('admin/workspaces')
@OperatorOnly()
export class AdminReadsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequiresRole('auditor')
  @ApiOperation({
    summary: 'List workspaces',
    description:
      'In the order they were created, with plan, project limit and usage. `q` keeps the names containing it.',
  })
  @ApiQuery({
    name: 'q',
    required: false,
    type: String,
    description: 'Part of the name, in any case',
    example: 'sky',
  })
  @ApiCursorQuery()
  @ApiOkResponse({ type: WorkspaceListSchema })
  @ApiErrors({ 400: [INVALID_CURSOR, WORKSPACE_SEARCH_MESSAGE] })
  list(@Query('q') q?: unknown, @Query('cursor') cursor?: unknown) {
    return this.queries.execute(
      new ListWorkspacesQuery({
        q: singleQueryValue('q', q, WORKSPACE_SEARCH_MESSAGE),
        cursor: singleQueryValue('cursor', cursor, INVALID_CURSOR),
      }),
    );
  }

  @Get(':workspaceId')
  @RequiresRole('auditor')
  @ApiOperation({ summary: 'Get a workspace', description: 'The workspace as listed.' })
  @ApiIdParam('workspaceId', 'Workspace id', EXAMPLE.workspaceId)
  @ApiOkResponse({ type: WorkspaceListItemSchema })
  @ApiErrors({ 404: WORKSPACE_NOT_FOUND })
  get(@Param('workspaceId') workspaceId: string) {
    return this.queries.execute(new GetWorkspaceQuery(workspaceId));
  }

  @Get(':workspaceId/api-keys')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: "List a workspace's API keys",
    description:
      'In the order they were created; never the secret, nor its hash. `last_used_at` is accurate to a minute.',
  })
  @ApiIdParam('workspaceId', 'Workspace id', EXAMPLE.workspaceId)
  @ApiCursorQuery()
  @ApiOkResponse({ type: AdminApiKeyListSchema })
  @ApiErrors({ 400: INVALID_CURSOR, 404: WORKSPACE_NOT_FOUND })
  async apiKeys(@Param('workspaceId') workspaceId: string, @Query('cursor') cursor?: unknown) {
    const after = singleQueryValue('cursor', cursor, INVALID_CURSOR);
    await this.queries.execute(new GetWorkspaceQuery(workspaceId));
    const list = await this.queries.execute(new ListApiKeysQuery(workspaceId, after));
    const api_keys = list.api_keys.map((key): AdminApiKey => ({
      id: key.id,
      name: key.name,
      scope: key.scope,
      status: key.status,
      created: key.created,
      last_used_at: key.last_used_at,
    }));
    return { api_keys, count: list.count, cursor: list.cursor };
  }

  @Get(':workspaceId/members')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: "List a workspace's members",
    description: 'In the order they were added; an erased member shows `[erased]` in its personal fields.',
  })
  @ApiIdParam('workspaceId', 'Workspace id', EXAMPLE.workspaceId)
  @ApiCursorQuery()
  @ApiOkResponse({ type: AdminMemberListSchema })
  @ApiErrors({ 400: INVALID_CURSOR, 404: WORKSPACE_NOT_FOUND })
  async members(@Param('workspaceId') workspaceId: string, @Query('cursor') cursor?: unknown) {
    const after = singleQueryValue('cursor', cursor, INVALID_CURSOR);
    await this.queries.execute(new GetWorkspaceQuery(workspaceId));
    const list = await this.queries.execute(new ListTeamQuery(workspaceId, { cursor: after }));
    return { members: list.team, count: list.count, cursor: list.cursor };
  }
}
