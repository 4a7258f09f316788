import { Command, CommandContext } from '../../shared/command-context';

/** The right to be forgotten: destroys a member's key; their personal data reads as erased everywhere. */
export class EraseMemberCommand extends Command {
  constructor(
    context: CommandContext,
    readonly memberId: string,
  ) {
    super(context);
  }
}
