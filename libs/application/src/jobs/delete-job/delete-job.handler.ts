import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobCommand } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { requireWorkspace } from '../../shared/tenant';
import { decideOnJob } from '../job-access';
import { DeleteJobCommand } from './delete-job.command';

@CommandHandler(DeleteJobCommand)
export class DeleteJobHandler implements ICommandHandler<DeleteJobCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId, jobId }: DeleteJobCommand) {
    requireWorkspace(context);
    const now = this.clock.now();
    await decideOnJob(this.repository, context, projectId, jobId, (): JobCommand => ({ type: 'DeleteJob', now }));
  }
}
