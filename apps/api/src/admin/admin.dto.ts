import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { API_KEY_SCOPES, ApiKeyScope, MEMBER_ROLES, MemberRole, Plan, PLANS } from '@app/domain';
import {
  IsStringField,
  LengthBetween,
  OneOf,
  OptionalString,
  Required,
  RequiredString,
  WhenPresent,
} from '../http/field-rules';
import { ValidateBy } from 'class-validator';
import { ADMIN_FIELD } from '../openapi/schemas/admin.schema';

const PROJECT_LIMIT_MESSAGE = 'project_limit must be a non-negative integer or null';
const ProjectLimit = () =>
  applyDecorators(
    WhenPresent(),
    ValidateBy(
      {
        name: 'projectLimit',
        validator: {
          validate: (v: unknown) =>
            v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1_000_000_000),
          defaultMessage: () => PROJECT_LIMIT_MESSAGE,
        },
      },
      { message: PROJECT_LIMIT_MESSAGE },
    ),
  );

export class CreateWorkspaceDto {
  @ApiProperty(ADMIN_FIELD.workspace_name)
  @RequiredString('name', 1, 100, 'name must be between 1 and 100 characters')
  name: string = undefined as never;

  @ApiProperty(ADMIN_FIELD.plan)
  @OneOf(PLANS, `plan must be one of: ${PLANS.join(', ')}`)
  plan: Plan = undefined as never;

  @ApiPropertyOptional(ADMIN_FIELD.project_limit)
  @ProjectLimit()
  project_limit?: number | null = undefined;
}

/** At least one of the two fields. */
export class UpdateWorkspaceDto {
  @ApiPropertyOptional(ADMIN_FIELD.plan)
  @applyDecorators(WhenPresent(), OneOf(PLANS, `plan must be one of: ${PLANS.join(', ')}`))
  plan?: Plan = undefined;

  @ApiPropertyOptional({ ...ADMIN_FIELD.project_limit, description: 'Maximum number of projects; null = unlimited' })
  @ProjectLimit()
  project_limit?: number | null = undefined;
}

export const MEMBER_STATUSES = ['active', 'invited', 'inactive'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class AddMemberDto {
  @ApiProperty(ADMIN_FIELD.email)
  @applyDecorators(
    Required('email is required'),
    IsStringField('email'),
    LengthBetween(3, 254, 'email must be a valid email address'),
    ValidateBy(
      { name: 'email', validator: { validate: (v: unknown) => typeof v === 'string' && EMAIL.test(v) } },
      { message: 'email must be a valid email address' },
    ),
  )
  email: string = undefined as never;

  @ApiProperty(ADMIN_FIELD.role)
  @OneOf(MEMBER_ROLES, `role must be one of: ${MEMBER_ROLES.join(', ')}`)
  role: MemberRole = undefined as never;

  @ApiPropertyOptional(ADMIN_FIELD.first_name)
  @OptionalString('first_name', 100, 'first_name must not exceed 100 characters')
  first_name?: string | null = undefined;

  @ApiPropertyOptional(ADMIN_FIELD.last_name)
  @OptionalString('last_name', 100, 'last_name must not exceed 100 characters')
  last_name?: string | null = undefined;

  @ApiPropertyOptional(ADMIN_FIELD.title)
  @OptionalString('title', 100, 'title must not exceed 100 characters')
  title?: string | null = undefined;

  @ApiPropertyOptional(ADMIN_FIELD.phone_number)
  @OptionalString('phone_number', 50, 'phone_number must not exceed 50 characters')
  phone_number?: string | null = undefined;

  @ApiPropertyOptional(ADMIN_FIELD.profile_picture)
  @applyDecorators(
    OptionalString('profile_picture', 2048, 'profile_picture must not exceed 2048 characters'),
    ValidateIf((_o, v) => v !== undefined && v !== null),
    ValidateBy(
      { name: 'url', validator: { validate: (v: unknown) => typeof v === 'string' && /^https?:\/\/\S+$/.test(v) } },
      { message: 'profile_picture must be an http(s) URL' },
    ),
  )
  profile_picture?: string | null = undefined;

  @ApiPropertyOptional({
    enum: [...MEMBER_STATUSES],
    default: 'active',
    description: 'Membership status',
    example: 'active',
  })
  @applyDecorators(WhenPresent(), OneOf(MEMBER_STATUSES, `status must be one of: ${MEMBER_STATUSES.join(', ')}`))
  status?: string = undefined;
}

export class CreateApiKeyDto {
  @ApiProperty(ADMIN_FIELD.key_name)
  @RequiredString('name', 1, 100, 'name must be between 1 and 100 characters')
  name: string = undefined as never;

  @ApiProperty(ADMIN_FIELD.scope)
  @OneOf(API_KEY_SCOPES, `scope must be one of: ${API_KEY_SCOPES.join(', ')}`)
  scope: ApiKeyScope = undefined as never;
}
