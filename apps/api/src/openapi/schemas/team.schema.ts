import type { TeamList, TeamMember, TeamMemberListItem } from '@app/application';
import { MEMBER_ROLES, MEMBER_STATUSES } from '@app/domain';
import { EXAMPLE, millis, NEXT_CURSOR, PAGE_COUNT } from './common.schema';
import { SchemaFields, schemaOf } from './schema-table';

const ERASED_NOTE = 'Shows `[erased]` once the member has been erased (docs/privacy.md)';

const TEAM_MEMBER_FIELDS: SchemaFields<TeamMember> = {
  id: { description: 'User id', example: EXAMPLE.userId },
  email: { format: 'email', description: ERASED_NOTE, example: 'pat@example.com' },
  first_name: { type: String, nullable: true, example: 'Pat' },
  last_name: { type: String, nullable: true, example: 'Jensen' },
  role: { enum: [...MEMBER_ROLES], enumName: 'MemberRole', example: 'pilot' },
  title: { type: String, nullable: true, description: 'Job title', example: 'Senior pilot' },
  phone_number: { type: String, nullable: true, example: '+45 12 34 56 78' },
  profile_picture: { type: String, format: 'uri', nullable: true, example: 'https://cdn.example.com/avatars/pat.png' },
  created: millis(),
  updated: millis(),
};

export const TeamMemberSchema = schemaOf<TeamMember>(
  { name: 'TeamMember', description: 'A member of the workspace (docs/api.md, Team).' },
  TEAM_MEMBER_FIELDS,
);

export const TeamMemberListItemSchema = schemaOf<TeamMemberListItem>(
  { name: 'TeamMemberListItem', description: 'A member as listed: with the membership status.' },
  {
    ...TEAM_MEMBER_FIELDS,
    status: { enum: [...MEMBER_STATUSES], description: 'Membership status', example: 'active' },
  },
);

export const TeamListSchema = schemaOf<TeamList>(
  { name: 'TeamList', description: 'A page of team members, in the order they were added.' },
  { team: { type: () => [TeamMemberListItemSchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);
