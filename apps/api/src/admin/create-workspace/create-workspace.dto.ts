import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { Plan, PLANS, WORKSPACE_LIMITS as L, WORKSPACE_MESSAGES as M } from '@app/domain';
import { OneOf, RequiredString, WhenPresent } from '../../http/field-rules';
import { ADMIN_FIELD } from '../../openapi/schemas/admin.schema';

/** `project_limit` of create and update: a non-negative integer, or null for unlimited. */
export const ProjectLimit = () =>
  applyDecorators(
    WhenPresent(),
    ValidateBy(
      {
        name: 'projectLimit',
        validator: {
          validate: (v: unknown) =>
            v === null ||
            (typeof v === 'number' && Number.isInteger(v) && v >= L.projectLimit.min && v <= L.projectLimit.max),
          defaultMessage: () => M.projectLimit,
        },
      },
      { message: M.projectLimit },
    ),
  );

/** POST /admin/workspaces (docs/operator-contract.md). */
export class CreateWorkspaceDto {
  @ApiProperty(ADMIN_FIELD.workspace_name)
  @RequiredString('name', L.name.min, L.name.max, M.nameLength)
  name: string = undefined as never;

  @ApiProperty(ADMIN_FIELD.plan)
  @OneOf(PLANS, M.plan)
  plan: Plan = undefined as never;

  @ApiPropertyOptional(ADMIN_FIELD.project_limit)
  @ProjectLimit()
  project_limit?: number | null = undefined;
}
