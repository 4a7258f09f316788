import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JOB_MESSAGES, JobCommand, validationError } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { isJobTypeOfWorkspace } from '../../job-types/job-type-lookup';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { requireWorkspace } from '../../shared/tenant';
import { decideOnJob } from '../job-access';
import { UpdateJobCommand } from './update-job.command';

@CommandHandler(UpdateJobCommand)
export class UpdateJobHandler implements ICommandHandler<UpdateJobCommand, { revision: number }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId, jobId, changes }: UpdateJobCommand) {
    const workspaceId = requireWorkspace(context);
    // Looked up before deciding (a decision cannot wait for I/O); judged only if the type changes,
    // so sending back the type a job already has never fails, even if that custom type was deleted.
    const typeKnown = changes.type === undefined || (await isJobTypeOfWorkspace(this.read, workspaceId, changes.type));
    const now = this.clock.now();
    const outcome = await decideOnJob(this.repository, context, projectId, jobId, (state): JobCommand => {
      if (!typeKnown && state.status === 'live' && state.fields.type !== changes.type) {
        throw validationError(JOB_MESSAGES.typeUnknown);
      }
      return { type: 'UpdateJob', changes, now };
    });
    return { revision: outcome.revision };
  }
}
