import { ERASED } from '../../privacy/personal-data-vault';
import { useEmbeddedStores } from '../../shared/embedded-stores.spec-helper';
import { EraseMemberCommand } from '../../workspaces/erase-member/erase-member.command';
import { EraseMemberHandler } from '../../workspaces/erase-member/erase-member.handler';
import { addMember } from '../team-members.spec-helper';
import { GetTeamMemberHandler } from './get-team-member.handler';
import { GetTeamMemberQuery } from './get-team-member.query';

describe('GetTeamMemberHandler (embedded SQLite)', () => {
  const stores = useEmbeddedStores('wos-team-member-');
  const handler = () => new GetTeamMemberHandler(stores.read, stores.vault);

  it('shows a member of the workspace, opened, without the list-only status', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await addMember(stores, context, 'ana@example.com', 'pilot');
    await stores.settle();

    const member = await handler().execute(new GetTeamMemberQuery(ws, id));
    expect(member).toMatchObject({ id, email: 'ana@example.com', first_name: 'ana', role: 'pilot' });
    expect(member).not.toHaveProperty('status');
  });

  it("answers another workspace's member, and a missing one, as not found", async () => {
    const { context } = await stores.workspace('Owner');
    const { id: stranger } = await stores.workspace('Stranger');
    const { id } = await addMember(stores, context, 'ana@example.com', 'pilot');
    await stores.settle();

    await expect(handler().execute(new GetTeamMemberQuery(stranger, id))).rejects.toThrow('User not found');
    await expect(handler().execute(new GetTeamMemberQuery(context.workspaceId!, 'usr_missing'))).rejects.toThrow(
      'User not found',
    );
  });

  it('shows an erased member with role and dates only', async () => {
    const { id: ws, context } = await stores.workspace();
    const { id } = await addMember(stores, context, 'ana@example.com', 'pilot');
    await stores.settle();
    await new EraseMemberHandler(stores.repository, stores.vault, stores.read, stores.clock).execute(
      new EraseMemberCommand(context, id),
    );
    await stores.settle();

    expect(await handler().execute(new GetTeamMemberQuery(ws, id))).toMatchObject({
      id,
      email: ERASED,
      first_name: ERASED,
      role: 'pilot',
    });
  });
});
