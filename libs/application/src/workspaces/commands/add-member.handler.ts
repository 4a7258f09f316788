import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { workspaceDecider, workspaceStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { AddMemberCommand } from './add-member.command';

@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand, { id: string }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, workspaceId, input }: AddMemberCommand) {
    const id = this.ids.next('usr');
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(workspaceId),
      { type: 'AddMember', memberId: id, role: input.role, status: input.status, profile: input.profile, now: this.clock.now() },
      { ...context, workspaceId },
    );
    return { id };
  }
}
