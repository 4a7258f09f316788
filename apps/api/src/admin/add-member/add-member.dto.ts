import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, ValidateIf } from 'class-validator';
import {
  MEMBER_LIMITS,
  MEMBER_MESSAGES as MM,
  MEMBER_ROLES,
  MEMBER_STATUSES,
  MemberRole,
  MemberStatus,
} from '@app/domain';
import { IsStringField, LengthBetween, OneOf, OptionalString, Required, WhenPresent } from '../../http/field-rules';
import { ADMIN_FIELD } from '../../openapi/schemas/admin.schema';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** POST /admin/workspaces/{workspaceId}/members (docs/operator-contract.md). */
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
