import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
  JOB_MESSAGES,
  jobDecider,
  jobStream,
  notFound,
  PROJECT_NOT_FOUND,
  projectDecider,
  projectStream,
  validationError,
} from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { isJobTypeOfWorkspace } from '../../job-types/job-type-lookup';
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
    await assertOwnLiveProject(this.repository, context, projectId);
    if (!(await isJobTypeOfWorkspace(this.read, workspaceId, input.type))) throw validationError(JOB_MESSAGES.typeUnknown);
    const id = this.ids.next('job');
    await this.repository.execute(
      jobDecider,
      jobStream(id),
      { type: 'CreateJob', id, workspaceId, projectId, input, now: this.clock.now() },
      context,
    );

    // The project may have been deleted since the check above. Its deletion removes every job the
    // read models show once `project.deleted` is in (see deleteProjectJobs); a job appended after
    // that is this handler's to remove. Reading the project stream after our append sees any
    // deletion appended before it, so no job outlives its project.
    const { state } = await this.repository.load(projectDecider, projectStream(projectId));
    if (state.status !== 'live') {
      await this.repository
        .execute(jobDecider, jobStream(id), { type: 'DeleteJob', now: this.clock.now() }, context)
        .catch((error: unknown) => {
          if (!(error instanceof DomainError && error.kind === 'not_found')) throw error; // the cascade was quicker
        });
      throw notFound(PROJECT_NOT_FOUND);
    }
    return { id };
  }
}
