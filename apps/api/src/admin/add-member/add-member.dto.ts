import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, Matches } from 'class-validator';
import {
  MEMBER_LIMITS as L,
  MEMBER_MESSAGES as M,
  MEMBER_ROLES,
  MEMBER_STATUSES,
  MemberRole,
  MemberStatus,
} from '@app/domain';
import { CharLength, IsOmittable, MUST_BE_STRING } from '../../http/validators';
import { OptionalText } from '../admin-fields';

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

  @OptionalText(L.firstName, M.firstNameLength, { example: 'Pat' })
  first_name?: string | null;

  @OptionalText(L.lastName, M.lastNameLength, { example: 'Jensen' })
  last_name?: string | null;

  @OptionalText(L.title, M.titleLength, { description: 'Job title', example: 'Senior pilot' })
  title?: string | null;

  @OptionalText(L.phoneNumber, M.phoneNumberLength, { example: '+45 12 34 56 78' })
  phone_number?: string | null;

  @Matches(HTTP_URL, { message: M.profilePictureUrl })
  @OptionalText(L.profilePicture, M.profilePictureLength, {
    format: 'uri',
    description: 'An http(s) URL',
    example: 'https://cdn.example.com/avatars/pat.png',
  })
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
