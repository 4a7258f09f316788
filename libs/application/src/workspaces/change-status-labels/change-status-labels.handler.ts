import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WORKSPACE_NOT_FOUND, notFound, workspaceDecider, workspaceStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { ChangeStatusLabelsCommand } from './change-status-labels.command';

/** Records the labels on the workspace of the caller's context: never another one. */
@CommandHandler(ChangeStatusLabelsCommand)
export class ChangeStatusLabelsHandler implements ICommandHandler<ChangeStatusLabelsCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, labels }: ChangeStatusLabelsCommand): Promise<void> {
    if (context.workspaceId === null) throw notFound(WORKSPACE_NOT_FOUND);
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(context.workspaceId),
      { type: 'ChangeStatusLabels', labels, now: this.clock.now() },
      context,
    );
  }
}
