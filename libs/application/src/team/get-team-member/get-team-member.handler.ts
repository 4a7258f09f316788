import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { USER_NOT_FOUND } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { ownDocument } from '../../shared/tenant';
import { MEMBERS, MemberDoc } from '../../workspaces/workspace.projector';
import { presentMember, TeamMember } from '../team-member-view';
import { GetTeamMemberQuery } from './get-team-member.query';

@QueryHandler(GetTeamMemberQuery)
export class GetTeamMemberHandler implements IQueryHandler<GetTeamMemberQuery, TeamMember> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ workspaceId, memberId }: GetTeamMemberQuery): Promise<TeamMember> {
    const found = ownDocument(await this.read.get<MemberDoc>(MEMBERS, memberId), workspaceId, USER_NOT_FOUND);
    const { status: _listOnly, ...member } = await presentMember(this.vault, found.doc);
    return member;
  }
}
