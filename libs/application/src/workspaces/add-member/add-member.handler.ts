import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { workspaceDecider, workspaceStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { AddMemberCommand } from './add-member.command';

@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand, { id: string }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ context, workspaceId, input }: AddMemberCommand) {
    const id = this.ids.next('usr');
    // Personal data enters the history only sealed with the member's own key (crypto-shredding).
    const [emailHash, profileSealed] = await Promise.all([
      this.vault.blindIndex(input.profile.email.trim().toLowerCase()),
      this.vault.seal(id, { ...input.profile }),
    ]);
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(workspaceId),
      {
        type: 'AddMember',
        memberId: id,
        role: input.role,
        status: input.status,
        title: input.title,
        emailHash,
        profileSealed,
        now: this.clock.now(),
      },
      { ...context, workspaceId },
    );
    return { id };
  }
}
