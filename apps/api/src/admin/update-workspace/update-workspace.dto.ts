import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Plan, PLANS, WORKSPACE_MESSAGES as M } from '@app/domain';
import { OneOf, WhenPresent } from '../../http/field-rules';
import { ADMIN_FIELD } from '../../openapi/schemas/admin.schema';
import { ProjectLimit } from '../create-workspace/create-workspace.dto';

/** PATCH /admin/workspaces/{workspaceId}: at least one of the two fields (checked by the controller). */
export class UpdateWorkspaceDto {
  @ApiPropertyOptional(ADMIN_FIELD.plan)
  @applyDecorators(WhenPresent(), OneOf(PLANS, M.plan))
  plan?: Plan = undefined;

  @ApiPropertyOptional({ ...ADMIN_FIELD.project_limit, description: 'Maximum number of projects; null = unlimited' })
  @ProjectLimit()
  project_limit?: number | null = undefined;
}
