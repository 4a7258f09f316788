import { MemberProfile, MemberRole } from '@app/domain';
import { Command, CommandContext } from '../../shared/command-context';

export class AddMemberCommand extends Command<{ id: string }> {
  constructor(
    context: CommandContext,
    readonly workspaceId: string,
    readonly input: { role: MemberRole; status: string; title: string | null; profile: MemberProfile },
  ) {
    super(context);
  }
}
