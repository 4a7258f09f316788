import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { MEMBERS, MemberDoc } from '../../workspaces/workspace.projector';
import { presentMember } from '../team-member-view';
import { ListTeamQuery, TeamList } from './list-team.query';

/** Members in the order they were added, so pages stay stable while members join. */
@QueryHandler(ListTeamQuery)
export class ListTeamHandler implements IQueryHandler<ListTeamQuery, TeamList> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ workspaceId, filter }: ListTeamQuery): Promise<TeamList> {
    const afterSeq = decodeCursor(filter.cursor);
    const found = await this.read.find<MemberDoc>(MEMBERS, {
      workspaceId,
      where: filter.role ? { role: filter.role } : {},
      afterSeq,
      limit: PAGE_SIZE + 1,
    });
    const page = toPage(found);
    const team = await Promise.all(page.items.map((doc) => presentMember(this.vault, doc)));
    return { team, count: team.length, cursor: page.cursor };
  }
}
