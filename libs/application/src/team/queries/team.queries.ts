import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { MemberRole, notFound } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { MEMBERS, MemberDoc } from '../../workspaces/workspace.projector';

export const USER_NOT_FOUND = 'User not found';

/** GET /team lists members with their membership `status` (spec 2.5). */
export type TeamMemberListItem = MemberDoc;
/** GET /team/{id} returns the same fields without `status` (spec 2.5). */
export type TeamMember = Omit<MemberDoc, 'status'>;

export interface TeamList {
  team: TeamMemberListItem[];
  count: number;
  cursor: string | null;
}

export class ListTeamQuery extends Query<TeamList> {
  /** `role` undefined lists every member (the spec's `all`). */
  constructor(
    readonly workspaceId: string,
    readonly filter: { role?: MemberRole; cursor?: string },
  ) {
    super();
  }
}

export class GetTeamMemberQuery extends Query<TeamMember> {
  constructor(
    readonly workspaceId: string,
    readonly memberId: string,
  ) {
    super();
  }
}

/** Members in the order they were added, so pages stay stable while members join. */
@QueryHandler(ListTeamQuery)
export class ListTeamHandler implements IQueryHandler<ListTeamQuery, TeamList> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, filter }: ListTeamQuery): Promise<TeamList> {
    const afterSeq = decodeCursor(filter.cursor);
    const found = await this.read.find<MemberDoc>(MEMBERS, {
      workspaceId,
      where: filter.role ? { role: filter.role } : {},
      afterSeq,
      limit: PAGE_SIZE + 1,
    });
    const page = toPage(found);
    return { team: page.items, count: page.items.length, cursor: page.cursor };
  }
}

@QueryHandler(GetTeamMemberQuery)
export class GetTeamMemberHandler implements IQueryHandler<GetTeamMemberQuery, TeamMember> {
  constructor(@Inject(READ_MODEL_STORE) private readonly read: ReadModelStore) {}

  async execute({ workspaceId, memberId }: GetTeamMemberQuery): Promise<TeamMember> {
    const found = await this.read.get<MemberDoc>(MEMBERS, memberId);
    if (!found || found.workspaceId !== workspaceId) throw notFound(USER_NOT_FOUND);
    const { status: _listOnly, ...member } = found.doc;
    return member;
  }
}
