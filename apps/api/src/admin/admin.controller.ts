import { Body, Controller, HttpCode, Inject, Param, Patch, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AddMemberCommand,
  CommandContext,
  CreateApiKeyCommand,
  CreateWorkspaceCommand,
  DashboardAccess,
  DeactivateApiKeyCommand,
  MEMBER_CANNOT_SIGN_IN,
  EraseMemberCommand,
  UpdateWorkspaceCommand,
} from '@app/application';
import {
  API_KEY_NOT_FOUND,
  MEMBER_EMAIL_TAKEN,
  MEMBER_MESSAGES,
  USER_NOT_FOUND,
  validationError,
  WORKSPACE_ANSWERS,
  WORKSPACE_MESSAGES,
  WORKSPACE_NOT_FOUND,
} from '@app/domain';
import { Ctx, OperatorOnly, RequiresRole } from '../http/auth';
import { ApiErrors, ApiIdParam, ApiOperatorAuth } from '../openapi/decorators';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../tokens';
import { CreatedApiKeySchema, DashboardLinkSchema } from '../openapi/schemas/admin.schema';
import { EXAMPLE, IdBody, MessageBody } from '../openapi/schemas/common.schema';
import { AddMemberDto } from './add-member/add-member.dto';
import { CreateApiKeyDto } from './create-api-key/create-api-key.dto';
import { CreateWorkspaceDto } from './create-workspace/create-workspace.dto';
import { UpdateWorkspaceDto } from './update-workspace/update-workspace.dto';

/**
 * The operator contract of docs/operator-contract.md: it stands in for the dashboard of the API reference.
 * Authorised by ADMIN_TOKEN; any API key here is refused with `api_key_path_not_allowed`.
 */
@ApiTags('Operator')
@ApiOperatorAuth()
@Controller('admin')
@OperatorOnly()
export class AdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dashboard: DashboardAccess,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('workspaces')
  @RequiresRole('operator')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a workspace' })
  @ApiCreatedResponse({ type: IdBody, example: { id: EXAMPLE.workspaceId } })
  @ApiErrors({
    400: [WORKSPACE_MESSAGES.nameRequired, WORKSPACE_MESSAGES.plan, WORKSPACE_MESSAGES.projectLimit],
  })
  createWorkspace(@Ctx() context: CommandContext, @Body() body: CreateWorkspaceDto) {
    return this.commands.execute(
      new CreateWorkspaceCommand(context, {
        name: body.name,
        plan: body.plan,
        projectLimit: body.project_limit ?? null,
      }),
    );
  }

  @Patch('workspaces/:workspaceId')
  @RequiresRole('operator')
  @ApiOperation({ summary: "Change a workspace's plan or project limit" })
  @ApiIdParam('workspaceId', 'Workspace id', EXAMPLE.workspaceId)
  @ApiOkResponse({ type: MessageBody, example: { message: WORKSPACE_ANSWERS.updated } })
  @ApiErrors({ 400: WORKSPACE_MESSAGES.nothingToUpdate, 404: WORKSPACE_NOT_FOUND })
  async updateWorkspace(
    @Ctx() context: CommandContext,
    @Param('workspaceId') workspaceId: string,
    @Body() body: UpdateWorkspaceDto,
  ) {
    if (body.plan === undefined && body.project_limit === undefined) {
      throw validationError(WORKSPACE_MESSAGES.nothingToUpdate);
    }
    await this.commands.execute(
      new UpdateWorkspaceCommand(context, workspaceId, { plan: body.plan, projectLimit: body.project_limit }),
    );
    return { message: WORKSPACE_ANSWERS.updated };
  }

  @Post('workspaces/:workspaceId/members')
  @RequiresRole('operator')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add a team member',
    description:
      'Personal data (email, names, phone, picture) is stored encrypted with a per-member key (docs/privacy.md).',
  })
  @ApiIdParam('workspaceId', 'Workspace id', EXAMPLE.workspaceId)
  @ApiCreatedResponse({ type: IdBody, example: { id: EXAMPLE.userId } })
  @ApiErrors({
    400: [MEMBER_MESSAGES.emailRequired, MEMBER_MESSAGES.email, MEMBER_MESSAGES.role],
    404: WORKSPACE_NOT_FOUND,
    409: MEMBER_EMAIL_TAKEN,
  })
  addMember(@Ctx() context: CommandContext, @Param('workspaceId') workspaceId: string, @Body() body: AddMemberDto) {
    return this.commands.execute(
      new AddMemberCommand(context, workspaceId, {
        role: body.role,
        status: body.status ?? 'active',
        title: body.title ?? null,
        profile: {
          email: body.email,
          first_name: body.first_name ?? null,
          last_name: body.last_name ?? null,
          phone_number: body.phone_number ?? null,
          profile_picture: body.profile_picture ?? null,
        },
      }),
    );
  }

  @Post('workspaces/:workspaceId/api-keys')
  @RequiresRole('operator')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an API key',
    description: 'The full key is in this response only; it cannot be recovered later.',
  })
  @ApiIdParam('workspaceId', 'Workspace id', EXAMPLE.workspaceId)
  @ApiCreatedResponse({ type: CreatedApiKeySchema })
  @ApiErrors({ 400: [WORKSPACE_MESSAGES.nameRequired, WORKSPACE_MESSAGES.scope], 404: WORKSPACE_NOT_FOUND })
  createApiKey(
    @Ctx() context: CommandContext,
    @Param('workspaceId') workspaceId: string,
    @Body() body: CreateApiKeyDto,
  ) {
    return this.commands.execute(new CreateApiKeyCommand(context, workspaceId, { name: body.name, scope: body.scope }));
  }

  @Post('workspaces/:workspaceId/members/:memberId/dashboard-links')
  @RequiresRole('operator')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Mint a dashboard sign-in link for a member',
    description:
      "A one-time link to the workspace dashboard: opening it and pressing Sign in starts a session for this member in this workspace only. It works once, for 15 minutes (DASHBOARD_LINK_TTL_SECONDS); only a digest of its token is stored. The link's base is PUBLIC_URL, else this request's protocol and host (as TRUST_PROXY lets a proxy say them). Only an active member whose personal data was not erased can sign in.",
  })
  @ApiIdParam('workspaceId', 'Workspace id', EXAMPLE.workspaceId)
  @ApiIdParam('memberId', 'User id of the member', EXAMPLE.userId)
  @ApiCreatedResponse({ type: DashboardLinkSchema })
  @ApiErrors({ 404: [WORKSPACE_NOT_FOUND, USER_NOT_FOUND], 409: MEMBER_CANNOT_SIGN_IN })
  async mintDashboardLink(
    @Req() request: FastifyRequest,
    @Param('workspaceId') workspaceId: string,
    @Param('memberId') memberId: string,
  ) {
    const { token, expiresAt } = await this.dashboard.mintLink(workspaceId, memberId);
    const base = this.config.publicUrl ?? `${request.protocol}://${request.host}`;
    return { url: `${base}/dashboard/sign-in?token=${token}`, expires_at: expiresAt };
  }

  /** Right to be forgotten: the member's personal data becomes unreadable everywhere; history stays. */
  @Post('members/:memberId/erase')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: "Erase a member's personal data",
    description:
      "Destroys the member's key: every read model, history and export shows the personal fields as `[erased]`; the history itself stays intact.",
  })
  @ApiIdParam('memberId', 'User id of the member', EXAMPLE.userId)
  @ApiOkResponse({ type: MessageBody, example: { message: 'Member personal data erased' } })
  @ApiErrors({ 404: USER_NOT_FOUND })
  async eraseMember(@Ctx() context: CommandContext, @Param('memberId') memberId: string) {
    await this.commands.execute(new EraseMemberCommand(context, memberId));
    return { message: 'Member personal data erased' };
  }

  @Post('api-keys/:keyId/deactivate')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Deactivate an API key',
    description: 'Effective on the next request: the key then gets 403 `api_key_inactive`.',
  })
  @ApiIdParam('keyId', 'API key id', EXAMPLE.apiKeyId)
  @ApiOkResponse({ type: MessageBody, example: { message: 'API key deactivated' } })
  @ApiErrors({ 404: API_KEY_NOT_FOUND })
  async deactivateApiKey(@Ctx() context: CommandContext, @Param('keyId') keyId: string) {
    await this.commands.execute(new DeactivateApiKeyCommand(context, keyId));
    return { message: 'API key deactivated' };
  }
}
