import { Query } from '@nestjs/cqrs';
import { TeamMember } from '../team-member-view';

export class GetTeamMemberQuery extends Query<TeamMember> {
  constructor(
    readonly workspaceId: string,
    readonly memberId: string,
  ) {
    super();
  }
}
