import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { MemberProfile, MemberRole, notFound, USER_NOT_FOUND } from '@app/domain';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { ERASED, PersonalDataVault } from '../../privacy/personal-data-vault';
import { decodeCursor, PAGE_SIZE, toPage } from '../../shared/pagination';
import { MEMBERS, MemberDoc } from '../../workspaces/workspace.projector';

/** GET /team lists members with their membership `status` (docs/api.md, Team). */
export interface TeamMemberListItem {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: string;
  status: string;
  title: string | null;
  phone_number: string | null;
  profile_picture: string | null;
  created: number;
  updated: number;
}
/** GET /team/{id} returns the same fields without `status` (docs/api.md, Team). */
export type TeamMember = Omit<TeamMemberListItem, 'status'>;

const ERASED_PROFILE: MemberProfile = {
  email: ERASED,
  first_name: ERASED,
  last_name: ERASED,
  phone_number: ERASED,
  profile_picture: ERASED,
};

/** Opens the sealed personal data; an erased member keeps role, status and dates only. */
async function present(vault: PersonalDataVault, doc: MemberDoc): Promise<TeamMemberListItem> {
  const profile = (await vault.open<MemberProfile>(doc.profile_sealed)) ?? ERASED_PROFILE;
  return {
    id: doc.id,
    email: profile.email,
    first_name: profile.first_name,
    last_name: profile.last_name,
    role: doc.role,
    status: doc.status,
    title: doc.title,
    phone_number: profile.phone_number,
    profile_picture: profile.profile_picture,
    created: doc.created,
    updated: doc.updated,
  };
}

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
    const team = await Promise.all(page.items.map((doc) => present(this.vault, doc)));
    return { team, count: team.length, cursor: page.cursor };
  }
}

@QueryHandler(GetTeamMemberQuery)
export class GetTeamMemberHandler implements IQueryHandler<GetTeamMemberQuery, TeamMember> {
  constructor(
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ workspaceId, memberId }: GetTeamMemberQuery): Promise<TeamMember> {
    const found = await this.read.get<MemberDoc>(MEMBERS, memberId);
    if (!found || found.workspaceId !== workspaceId) throw notFound(USER_NOT_FOUND);
    const { status: _listOnly, ...member } = await present(this.vault, found.doc);
    return member;
  }
}
