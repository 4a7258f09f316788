import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { notFound, USER_NOT_FOUND, workspaceDecider, workspaceStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { MEMBERS } from '../workspace.projector';
import { EraseMemberCommand } from './erase-member.command';

@CommandHandler(EraseMemberCommand)
export class EraseMemberHandler implements ICommandHandler<EraseMemberCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly vault: PersonalDataVault,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, memberId }: EraseMemberCommand) {
    const member = await this.read.get(MEMBERS, memberId);
    if (!member?.workspaceId) throw notFound(USER_NOT_FOUND);
    // The key goes first: once it is destroyed the data is unreadable even if the event below
    // never gets written, and a retry simply records the erasure.
    await this.vault.erase(memberId);
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(member.workspaceId),
      { type: 'EraseMember', memberId, now: this.clock.now() },
      { ...context, workspaceId: member.workspaceId },
    );
  }
}
