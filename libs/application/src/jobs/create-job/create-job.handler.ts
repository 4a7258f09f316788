import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  JOB_MESSAGES,
  jobDecider,
  jobStream,
  projectJobsDecider,
  projectJobsStream,
  validationError,
} from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { isJobTypeOfWorkspace } from '../../job-types/job-type-lookup';
import { newResourceId } from '../../shared/command-context';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { requireWorkspace } from '../../shared/tenant';
import { assertOwnLiveProject } from '../job-access';
import { CreateJobCommand } from './create-job.command';

@CommandHandler(CreateJobCommand)
export class CreateJobHandler implements ICommandHandler<CreateJobCommand, { id: string }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, projectId, input }: CreateJobCommand) {
    const workspaceId = requireWorkspace(context);
    // Looked up before deciding (a decision cannot wait for I/O), judged after the project.
    const typeKnown = await isJobTypeOfWorkspace(this.read, workspaceId, input.type);
    const id = newResourceId(this.ids, 'job', context, [projectId]);
    const now = this.clock.now();
    // One write: the job, its place in the project's job list, and (checked, not written) the
    // project's stream. A project deleted meanwhile moves that stream, the write fails, and the
    // retry sees the deletion; a deletion deciding meanwhile sees the list move and fails likewise.
    // So no job outlives its project.
    await this.repository.transact(projectJobsStream(projectId), context, async (unit) => {
      await assertOwnLiveProject(unit, context, projectId);
      if (!typeKnown) throw validationError(JOB_MESSAGES.typeUnknown);
      const job = await unit.decide(
        jobDecider,
        jobStream(id),
        { type: 'CreateJob', id, workspaceId, projectId, input, now },
        { order: 'last' },
      );
      if (job.events.length > 0) {
        await unit.decide(
          projectJobsDecider,
          projectJobsStream(projectId),
          { type: 'AddJob', workspaceId, projectId, jobId: id },
          { order: 'first' },
        );
      }
    });
    return { id };
  }
}
