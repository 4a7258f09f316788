import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Plan, PLANS, WORKSPACE_LIMITS as L, WORKSPACE_MESSAGES as M } from '@app/domain';
import { Name } from '../admin-fields';

/**
 * POST /admin/workspaces (docs/operator-contract.md). Fields in the order their failures are
 * reported in; each field's checks run bottom-up (http/validators.ts).
 */
export class CreateWorkspaceDto {
  @Name(L.name, 'Acme Aerial')
  name: string;

  @ApiProperty({ enum: [...PLANS], description: 'API access needs `enterprise`', example: 'enterprise' })
  @IsIn(PLANS, { message: M.plan })
  plan: Plan;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: L.projectLimit.min,
    maximum: L.projectLimit.max,
    nullable: true,
    description: 'Maximum number of projects; null (or absent on create) = unlimited',
    example: 100,
  })
  @Max(L.projectLimit.max, { message: M.projectLimit })
  @Min(L.projectLimit.min, { message: M.projectLimit })
  @IsInt({ message: M.projectLimit })
  @IsOptional()
  project_limit?: number | null;
}
