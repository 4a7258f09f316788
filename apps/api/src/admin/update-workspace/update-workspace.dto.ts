import { ApiPropertyOptional } from '@nestjs/swagger';
import { Plan } from '@app/domain';
import { IsOmittable } from '../../http/validators';
import { PLAN_DOC, PlanChecks, ProjectLimit } from '../admin-fields';

/**
 * PATCH /admin/workspaces/{workspaceId}: `plan` and `project_limit` with create's checks, each
 * optional; at least one of the two (checked by the controller). A `plan` of null is refused like
 * any wrong plan; a `project_limit` of null means unlimited, as on create.
 */
export class UpdateWorkspaceDto {
  @ApiPropertyOptional(PLAN_DOC)
  @PlanChecks()
  @IsOmittable()
  plan?: Plan;

  @ProjectLimit('Maximum number of projects; null = unlimited')
  project_limit?: number | null;
}
