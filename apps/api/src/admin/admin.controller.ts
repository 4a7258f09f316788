import { Body, Controller, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  AddMemberCommand,
  CommandContext,
  CreateApiKeyCommand,
  CreateWorkspaceCommand,
  DeactivateApiKeyCommand,
  EraseMemberCommand,
  UpdateWorkspaceCommand,
} from '@app/application';
import { validationError } from '@app/domain';
import { OperatorOnly } from '../http/auth.guard';
import { Ctx } from '../http/request-context.decorator';
import { AddMemberDto, CreateApiKeyDto, CreateWorkspaceDto, UpdateWorkspaceDto } from './admin.dto';

/**
 * The operator contract of ARCHITECTURE.md: it stands in for the dashboard of the spec.
 * Authorised by ADMIN_TOKEN; any API key here is refused with `api_key_path_not_allowed`.
 */
@Controller('admin')
@OperatorOnly()
export class AdminController {
  constructor(private readonly commands: CommandBus) {}

  @Post('workspaces')
  @HttpCode(201)
  createWorkspace(@Ctx() context: CommandContext, @Body() body: CreateWorkspaceDto) {
    return this.commands.execute(
      new CreateWorkspaceCommand(context, { name: body.name, plan: body.plan, projectLimit: body.project_limit ?? null }),
    );
  }

  @Patch('workspaces/:workspaceId')
  async updateWorkspace(
    @Ctx() context: CommandContext,
    @Param('workspaceId') workspaceId: string,
    @Body() body: UpdateWorkspaceDto,
  ) {
    if (body.plan === undefined && body.project_limit === undefined) {
      throw validationError('At least one field to update is required (plan, project_limit)');
    }
    await this.commands.execute(
      new UpdateWorkspaceCommand(context, workspaceId, { plan: body.plan, projectLimit: body.project_limit }),
    );
    return { message: 'Workspace updated successfully' };
  }

  @Post('workspaces/:workspaceId/members')
  @HttpCode(201)
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
  @HttpCode(201)
  createApiKey(@Ctx() context: CommandContext, @Param('workspaceId') workspaceId: string, @Body() body: CreateApiKeyDto) {
    return this.commands.execute(new CreateApiKeyCommand(context, workspaceId, { name: body.name, scope: body.scope }));
  }

  /** Right to be forgotten: the member's personal data becomes unreadable everywhere; history stays. */
  @Post('members/:memberId/erase')
  @HttpCode(200)
  async eraseMember(@Ctx() context: CommandContext, @Param('memberId') memberId: string) {
    await this.commands.execute(new EraseMemberCommand(context, memberId));
    return { message: 'Member personal data erased' };
  }

  @Post('api-keys/:keyId/deactivate')
  @HttpCode(200)
  async deactivateApiKey(@Ctx() context: CommandContext, @Param('keyId') keyId: string) {
    await this.commands.execute(new DeactivateApiKeyCommand(context, keyId));
    return { message: 'API key deactivated' };
  }
}
