import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../ports/clock.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { UpdateProjectCommand } from './update-project.command';
import { onOwnProject } from '../project-access';

@CommandHandler(UpdateProjectCommand)
export class UpdateProjectHandler implements ICommandHandler<UpdateProjectCommand, { revision: number }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId, changes, expectedRevision }: UpdateProjectCommand) {
    const outcome = await onOwnProject(
      this.repository,
      context,
      projectId,
      { type: 'UpdateProject', changes, now: this.clock.now() },
      expectedRevision,
    );
    return { revision: outcome.revision };
  }
}
