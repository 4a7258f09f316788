import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import {
  MEMBER_LIMITS as L,
  MEMBER_MESSAGES as M,
  MEMBER_ROLES,
  MEMBER_STATUSES,
  MemberRole,
  MemberStatus,
} from '@app/domain';
import { CharLength, IsOmittable, MUST_BE_STRING } from '../../http/validators';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HTTP_URL = /^https?:\/\/\S+$/;

/**
 * POST /admin/workspaces/{workspaceId}/members (docs/operator-contract.md). Fields in the order
 * their failures are reported in; each field's checks run bottom-up (http/validators.ts). null
 * leaves an optional text field unset.
 */
export class AddMemberDto {
  @ApiProperty({
    type: String,
    format: 'email',
    minLength: L.email.min,
    maxLength: L.email.max,
    description: 'Unique in the workspace (case-insensitive)',
    example: 'pat@example.com',
  })
  @Matches(EMAIL, { message: M.email })
  @CharLength(L.email.min, L.email.max, M.email)
  @IsString(MUST_BE_STRING)
  @IsDefined({ message: M.emailRequired })
  email: string;

  @ApiProperty({ enum: [...MEMBER_ROLES], enumName: 'MemberRole', example: 'pilot' })
  @IsIn(MEMBER_ROLES, { message: M.role })
  role: MemberRole;

  @ApiPropertyOptional({ type: String, maxLength: L.firstName, nullable: true, example: 'Pat' })
  @CharLength(0, L.firstName, M.firstNameLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  first_name?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: L.lastName, nullable: true, example: 'Jensen' })
  @CharLength(0, L.lastName, M.lastNameLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  last_name?: string | null;

  @ApiPropertyOptional({
    type: String,
    maxLength: L.title,
    nullable: true,
    description: 'Job title',
    example: 'Senior pilot',
  })
  @CharLength(0, L.title, M.titleLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  title?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: L.phoneNumber, nullable: true, example: '+45 12 34 56 78' })
  @CharLength(0, L.phoneNumber, M.phoneNumberLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  phone_number?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uri',
    maxLength: L.profilePicture,
    nullable: true,
    description: 'An http(s) URL',
    example: 'https://cdn.example.com/avatars/pat.png',
  })
  @Matches(HTTP_URL, { message: M.profilePictureUrl })
  @CharLength(0, L.profilePicture, M.profilePictureLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  profile_picture?: string | null;

  @ApiPropertyOptional({
    enum: [...MEMBER_STATUSES],
    default: 'active',
    description: 'Membership status',
    example: 'active',
  })
  @IsIn(MEMBER_STATUSES, { message: M.status })
  @IsOmittable()
  status?: MemberStatus;
}
