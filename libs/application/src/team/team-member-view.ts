import { MemberProfile } from '@app/domain';
import { ERASED, PersonalDataVault } from '../privacy/personal-data-vault';
import { MemberDoc } from '../workspaces/workspace.projector';

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
export async function presentMember(vault: PersonalDataVault, doc: MemberDoc): Promise<TeamMemberListItem> {
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
