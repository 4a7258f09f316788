import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../ports/clock.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { onOwnProject } from '../project-access';
import { ArchiveProjectCommand } from './archive-project.command';

@CommandHandler(ArchiveProjectCommand)
export class ArchiveProjectHandler implements ICommandHandler<ArchiveProjectCommand, { revision: number }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId, archived, expectedRevision }: ArchiveProjectCommand) {
    const outcome = await onOwnProject(
      this.repository,
      context,
      projectId,
      { type: 'ArchiveProject', archived, now: this.clock.now() },
      expectedRevision,
    );
    return { revision: outcome.revision };
  }
}
