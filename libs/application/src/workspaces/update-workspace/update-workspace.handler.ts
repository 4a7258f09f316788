import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { workspaceDecider, workspaceStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { UpdateWorkspaceCommand } from './update-workspace.command';

@CommandHandler(UpdateWorkspaceCommand)
export class UpdateWorkspaceHandler implements ICommandHandler<UpdateWorkspaceCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, workspaceId, input }: UpdateWorkspaceCommand) {
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(workspaceId),
      { type: 'UpdateWorkspace', plan: input.plan, projectLimit: input.projectLimit, now: this.clock.now() },
      { ...context, workspaceId },
    );
  }
}
