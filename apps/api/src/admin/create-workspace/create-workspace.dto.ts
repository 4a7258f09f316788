import { ApiProperty } from '@nestjs/swagger';
import { Plan, WORKSPACE_LIMITS as L } from '@app/domain';
import { Name, PLAN_DOC, PlanChecks, ProjectLimit } from '../admin-fields';

/**
 * POST /admin/workspaces (docs/operator-contract.md). Fields in the order their failures are
 * reported in; each field's checks run bottom-up (http/validators.ts).
 */
export class CreateWorkspaceDto {
  @Name(L.name, 'Acme Aerial')
  name: string;

  @ApiProperty(PLAN_DOC)
  @PlanChecks()
  plan: Plan;

  @ProjectLimit('Maximum number of projects; null (or absent on create) = unlimited')
  project_limit?: number | null;
}
