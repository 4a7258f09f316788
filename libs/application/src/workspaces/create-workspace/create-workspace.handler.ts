import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { workspaceDecider, workspaceStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { CreateWorkspaceCommand } from './create-workspace.command';

@CommandHandler(CreateWorkspaceCommand)
export class CreateWorkspaceHandler implements ICommandHandler<CreateWorkspaceCommand, { id: string }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, input }: CreateWorkspaceCommand) {
    const id = this.ids.next('ws');
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(id),
      {
        type: 'CreateWorkspace',
        id,
        name: input.name,
        plan: input.plan,
        projectLimit: input.projectLimit,
        now: this.clock.now(),
      },
      { ...context, workspaceId: id },
    );
    return { id };
  }
}
