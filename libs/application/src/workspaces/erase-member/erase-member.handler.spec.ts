import { OPERATOR, USER_NOT_FOUND, workspaceStream } from '@app/domain';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { AddMemberCommand } from '../add-member/add-member.command';
import { AddMemberHandler } from '../add-member/add-member.handler';
import { EraseMemberCommand } from './erase-member.command';
import { EraseMemberHandler } from './erase-member.handler';

describe('EraseMemberHandler (embedded event store and subject key store)', () => {
  const spec = handlerSpec();
  let sealed: string;
  beforeEach(async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1'));
    const { recorded } = await spec.when(() =>
      new AddMemberHandler(spec.repository, spec.clock, spec.ids, spec.vault).execute(
        new AddMemberCommand(spec.context(null, { actor: OPERATOR }), 'ws_1', {
          role: 'pilot',
          status: 'active',
          title: null,
          profile: {
            email: 'pat@example.com',
            first_name: 'Pat',
            last_name: null,
            phone_number: null,
            profile_picture: null,
          },
        }),
      ),
    );
    sealed = (recorded[0].data as { profile_sealed: string }).profile_sealed;
  });

  const erase = (memberId: string) =>
    new EraseMemberHandler(spec.repository, spec.vault, spec.read, spec.clock).execute(
      new EraseMemberCommand(spec.context(null, { actor: OPERATOR }), memberId),
    );

  it("destroys the member's key, so the sealed profile in the history no longer opens, and records the erasure", async () => {
    expect(await spec.vault.open(sealed)).not.toBeNull();

    const { events } = await spec.when(() => erase('usr_1'));

    expect(events).toEqual([
      {
        streamId: 'workspace-ws_1',
        type: 'workspace.member_erased',
        data: { workspace_id: 'ws_1', member_id: 'usr_1', erased: NOW },
      },
    ]);
    expect(await spec.vault.open(sealed)).toBeNull();
    expect(await new PersonalDataVault(spec.keys).open(sealed)).toBeNull();
  });

  it('erasing an erased member records nothing more', async () => {
    await erase('usr_1');

    const { events } = await spec.when(() => erase('usr_1'));
    expect(events).toEqual([]);
  });

  it('an unknown member is not found', async () => {
    await spec.whenRefused(() => erase('usr_404'), 'not_found', USER_NOT_FOUND);
  });
});
