import { MemberRole } from '@app/domain';
import { timeOrderedIds } from '../shared/time-ordered-ids';
import { CommandContext } from '../shared/command-context';
import { EmbeddedStores } from '../shared/embedded-stores.spec-helper';
import { AddMemberCommand } from '../workspaces/add-member/add-member.command';
import { AddMemberHandler } from '../workspaces/add-member/add-member.handler';

/** Adds a member through its handler (the profile sealed with the member's key), as the admin route does. */
export async function addMember(stores: EmbeddedStores, context: CommandContext, email: string, role: MemberRole) {
  const add = new AddMemberHandler(stores.repository, stores.clock, timeOrderedIds, stores.vault);
  return add.execute(
    new AddMemberCommand(context, context.workspaceId!, {
      role,
      status: 'active',
      title: null,
      profile: { email, first_name: email.split('@')[0], last_name: null, phone_number: null, profile_picture: null },
    }),
  );
}
