import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import {
  API_KEY_SCOPES,
  ApiKeyScope,
  MEMBER_LIMITS,
  MEMBER_MESSAGES as MM,
  MEMBER_ROLES,
  MEMBER_STATUSES,
  MemberRole,
  MemberStatus,
  Plan,
  PLANS,
  WORKSPACE_LIMITS as L,
  WORKSPACE_MESSAGES as M,
} from '@app/domain';
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

const ProjectLimit = () =>
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

/** At least one of the two fields. */
export class UpdateWorkspaceDto {
  @ApiPropertyOptional(ADMIN_FIELD.plan)
  @applyDecorators(WhenPresent(), OneOf(PLANS, M.plan))
  plan?: Plan = undefined;

  @ApiPropertyOptional({ ...ADMIN_FIELD.project_limit, description: 'Maximum number of projects; null = unlimited' })
  @ProjectLimit()
  project_limit?: number | null = undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class AddMemberDto {
  @ApiProperty(ADMIN_FIELD.email)
  @applyDecorators(
    Required(MM.emailRequired),
    IsStringField('email'),
    LengthBetween(MEMBER_LIMITS.email.min, MEMBER_LIMITS.email.max, MM.email),
    ValidateBy(
      { name: 'email', validator: { validate: (v: unknown) => typeof v === 'string' && EMAIL.test(v) } },
      { message: MM.email },
    ),
  )
  email: string = undefined as never;

  @ApiProperty(ADMIN_FIELD.role)
  @OneOf(MEMBER_ROLES, MM.role)
  role: MemberRole = undefined as never;

  @ApiPropertyOptional(ADMIN_FIELD.first_name)
  @OptionalString('first_name', MEMBER_LIMITS.firstName, MM.firstNameLength)
  first_name?: string | null = undefined;

  @ApiPropertyOptional(ADMIN_FIELD.last_name)
  @OptionalString('last_name', MEMBER_LIMITS.lastName, MM.lastNameLength)
  last_name?: string | null = undefined;

  @ApiPropertyOptional(ADMIN_FIELD.title)
  @OptionalString('title', MEMBER_LIMITS.title, MM.titleLength)
  title?: string | null = undefined;

  @ApiPropertyOptional(ADMIN_FIELD.phone_number)
  @OptionalString('phone_number', MEMBER_LIMITS.phoneNumber, MM.phoneNumberLength)
  phone_number?: string | null = undefined;

  @ApiPropertyOptional(ADMIN_FIELD.profile_picture)
  @applyDecorators(
    OptionalString('profile_picture', MEMBER_LIMITS.profilePicture, MM.profilePictureLength),
    ValidateIf((_o, v) => v !== undefined && v !== null),
    ValidateBy(
      { name: 'url', validator: { validate: (v: unknown) => typeof v === 'string' && /^https?:\/\/\S+$/.test(v) } },
      { message: MM.profilePictureUrl },
    ),
  )
  profile_picture?: string | null = undefined;

  @ApiPropertyOptional({
    enum: [...MEMBER_STATUSES],
    default: 'active',
    description: 'Membership status',
    example: 'active',
  })
  @applyDecorators(WhenPresent(), OneOf(MEMBER_STATUSES, MM.status))
  status?: MemberStatus = undefined;
}

export class CreateApiKeyDto {
  @ApiProperty(ADMIN_FIELD.key_name)
  @RequiredString('name', L.apiKeyName.min, L.apiKeyName.max, M.nameLength)
  name: string = undefined as never;

  @ApiProperty(ADMIN_FIELD.scope)
  @OneOf(API_KEY_SCOPES, M.scope)
  scope: ApiKeyScope = undefined as never;
}
