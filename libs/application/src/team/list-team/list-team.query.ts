import { Query } from '@nestjs/cqrs';
import { MemberRole } from '@app/domain';
import { TeamMemberListItem } from '../team-member-view';

export interface TeamList {
  team: TeamMemberListItem[];
  count: number;
  cursor: string | null;
}

export class ListTeamQuery extends Query<TeamList> {
  /** `role` undefined lists every member (the API reference's `all`). */
  constructor(
    readonly workspaceId: string,
    readonly filter: { role?: MemberRole; cursor?: string },
  ) {
    super();
  }
}
