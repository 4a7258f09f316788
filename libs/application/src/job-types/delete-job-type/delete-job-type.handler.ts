import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JOB_TYPE_NOT_FOUND, JobTypeCommand, jobTypeDecider, JobTypeState, jobTypeStream, notFound } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { ownedBy, requireWorkspace } from '../../shared/tenant';
import { DeleteJobTypeCommand } from './delete-job-type.command';

@CommandHandler(DeleteJobTypeCommand)
export class DeleteJobTypeHandler implements ICommandHandler<DeleteJobTypeCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, jobTypeId }: DeleteJobTypeCommand) {
    requireWorkspace(context);
    const now = this.clock.now();
    await this.repository.execute(
      jobTypeDecider,
      jobTypeStream(jobTypeId),
      (state: JobTypeState): JobTypeCommand => {
        // Missing and deleted types, and predefined ones (400), are the decider's call; a foreign one is ours.
        if (state.status !== 'absent' && !ownedBy(state.workspaceId, context)) throw notFound(JOB_TYPE_NOT_FOUND);
        return { type: 'DeleteJobType', id: jobTypeId, now };
      },
      context,
    );
  }
}
