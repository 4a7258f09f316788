import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { GetTeamMemberQuery, ListTeamQuery, Principal } from '@app/application';
import { MEMBER_ROLES, MemberRole, USER_NOT_FOUND, validationError } from '@app/domain';
import { Caller } from '../http/auth';
import { singleQueryValue } from '../http/query-params';
import { ApiCursorQuery, ApiErrors, ApiIdParam, ApiKeyAuth } from '../openapi/decorators';
import { EXAMPLE } from '../openapi/schemas/common.schema';
import { TeamListSchema, TeamMemberSchema } from '../openapi/schemas/team.schema';

const ROLE_FILTERS = [...MEMBER_ROLES, 'all'] as const;
const ROLE_MESSAGE = `role must be one of: ${ROLE_FILTERS.join(', ')}`;

/**
 * Team members (docs/api.md, Team), read only: members are added by the operator (POST
 * /v1/admin/workspaces/{id}/members), which stands in for the dashboard.
 */
@ApiTags('Team')
@ApiKeyAuth()
@Controller('team')
export class TeamController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'List team members',
    description: 'In the order they were added, 50 a page, each with its membership status.',
  })
  @ApiQuery({
    name: 'role',
    required: false,
    enum: [...ROLE_FILTERS],
    description: 'One role, or `all` (the default)',
    example: 'pilot',
  })
  @ApiCursorQuery()
  @ApiOkResponse({ type: TeamListSchema })
  @ApiErrors({ 400: [ROLE_MESSAGE, 'cursor is invalid'] })
  list(@Caller() caller: Principal, @Query('role') role?: string, @Query('cursor') cursor?: string) {
    return this.queries.execute(
      new ListTeamQuery(caller.workspaceId, { role: parseRole(role), cursor: singleQueryValue('cursor', cursor) }),
    );
  }

  @Get(':teamMemberId')
  @ApiOperation({ summary: 'Get a team member', description: 'The same fields as in the list, without `status`.' })
  @ApiIdParam('teamMemberId', 'User id', EXAMPLE.userId)
  @ApiOkResponse({ type: TeamMemberSchema })
  @ApiErrors({ 404: USER_NOT_FOUND })
  get(@Caller() caller: Principal, @Param('teamMemberId') memberId: string) {
    return this.queries.execute(new GetTeamMemberQuery(caller.workspaceId, memberId));
  }
}

/** `all` (the default, also for an empty value) lists everyone; undefined means no filter. */
function parseRole(raw: unknown): MemberRole | undefined {
  const value = singleQueryValue('role', raw);
  if (value === undefined || value === '' || value === 'all') return undefined;
  if (!(MEMBER_ROLES as readonly string[]).includes(value)) throw validationError(ROLE_MESSAGE);
  return value as MemberRole;
}
