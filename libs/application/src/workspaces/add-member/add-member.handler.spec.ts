import { MEMBER_EMAIL_TAKEN, MemberProfile, OPERATOR, WORKSPACE_NOT_FOUND, workspaceStream } from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { AddMemberCommand } from './add-member.command';
import { AddMemberHandler } from './add-member.handler';

const profile: MemberProfile = {
  email: 'Pat@Example.com',
  first_name: 'Pat',
  last_name: 'Lee',
  phone_number: null,
  profile_picture: null,
};

describe('AddMemberHandler (embedded event store and subject key store)', () => {
  const spec = handlerSpec();
  beforeEach(async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1'));
  });

  const add = (member: MemberProfile = profile, workspaceId = 'ws_1') =>
    new AddMemberHandler(spec.repository, spec.clock, spec.ids, spec.vault).execute(
      new AddMemberCommand(spec.context(null, { actor: OPERATOR }), workspaceId, {
        role: 'pilot',
        status: 'active',
        title: 'Chief pilot',
        profile: member,
      }),
    );

  it('records the member with their personal data sealed under their own key, never in clear', async () => {
    const { result, events, recorded } = await spec.when(() => add());

    expect(result).toEqual({ id: 'usr_1' });
    const [added] = events as {
      streamId: string;
      type: string;
      data: { profile_sealed: string; email_hash: string };
    }[];
    expect(added).toEqual({
      streamId: 'workspace-ws_1',
      type: 'workspace.member_added',
      data: {
        workspace_id: 'ws_1',
        member_id: 'usr_1',
        role: 'pilot',
        status: 'active',
        title: 'Chief pilot',
        email_hash: await spec.vault.blindIndex('pat@example.com'),
        profile_sealed: expect.any(String),
        created: NOW,
      },
    });
    expect(await spec.vault.open(added.data.profile_sealed)).toEqual(profile);
    // The sealed profile and the email's blind index are random-looking base64url, which can spell
    // "lee" by chance: look for the clear values everywhere else in what was recorded.
    const json = [added.data.profile_sealed, added.data.email_hash].reduce(
      (text, opaque) => text.replaceAll(opaque, '<opaque>'),
      JSON.stringify(recorded),
    );
    expect(json).toContain('<opaque>');
    expect(json).not.toMatch(/pat@example\.com|Lee/i);
  });

  it('an email already in the workspace (in any case, with spaces) is refused', async () => {
    await add();

    await spec.whenRefused(() => add({ ...profile, email: ' PAT@example.COM ' }), 'conflict', MEMBER_EMAIL_TAKEN);
  });

  it('a workspace that does not exist gets no member', async () => {
    await spec.whenRefused(() => add(profile, 'ws_404'), 'not_found', WORKSPACE_NOT_FOUND);
  });
});
