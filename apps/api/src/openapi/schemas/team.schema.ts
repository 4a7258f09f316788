import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { TeamList, TeamMember, TeamMemberListItem } from '@app/application';
import { MEMBER_ROLES, MEMBER_STATUSES } from '@app/domain';
import { EXAMPLE, Millis, NextCursor, PageCount } from './common.schema';

const ERASED_NOTE = 'Shows `[erased]` once the member has been erased (docs/privacy.md)';

@ApiSchema({ name: 'TeamMember', description: 'A member of the workspace (docs/api.md, Team).' })
export class TeamMemberSchema implements TeamMember {
  @ApiProperty({ description: 'User id', example: EXAMPLE.userId })
  id!: string;

  @ApiProperty({ format: 'email', description: ERASED_NOTE, example: 'pat@example.com' })
  email!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Pat' })
  first_name!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Jensen' })
  last_name!: string | null;

  @ApiProperty({ enum: [...MEMBER_ROLES], enumName: 'MemberRole', example: 'pilot' })
  role!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Job title', example: 'Senior pilot' })
  title!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '+45 12 34 56 78' })
  phone_number!: string | null;

  @ApiProperty({ type: String, format: 'uri', nullable: true, example: 'https://cdn.example.com/avatars/pat.png' })
  profile_picture!: string | null;

  @Millis()
  created!: number;

  @Millis()
  updated!: number;
}

@ApiSchema({ name: 'TeamMemberListItem', description: 'A member as listed: with the membership status.' })
export class TeamMemberListItemSchema extends TeamMemberSchema implements TeamMemberListItem {
  @ApiProperty({ enum: [...MEMBER_STATUSES], description: 'Membership status', example: 'active' })
  status!: string;
}

@ApiSchema({ name: 'TeamList', description: 'A page of team members, in the order they were added.' })
export class TeamListSchema implements TeamList {
  @ApiProperty({ type: () => [TeamMemberListItemSchema] })
  team!: TeamMemberListItem[];

  @PageCount()
  count!: number;

  @NextCursor()
  cursor!: string | null;
}
