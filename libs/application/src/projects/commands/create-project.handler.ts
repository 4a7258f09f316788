import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  createdByOf,
  ProjectCommand,
  projectDecider,
  projectStream,
  workspaceDecider,
  workspaceStream,
} from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { requireWorkspace } from '../../shared/tenant';
import { CreateProjectCommand } from './create-project.command';

@CommandHandler(CreateProjectCommand)
export class CreateProjectHandler implements ICommandHandler<CreateProjectCommand, { id: string }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, input }: CreateProjectCommand) {
    const workspaceId = requireWorkspace(context);
    const id = this.ids.next('prj');
    const create: ProjectCommand = {
      type: 'CreateProject',
      id,
      workspaceId,
      name: input.name,
      description: input.description,
      status: input.status,
      otherStatusReason: input.other_status_reason,
      startDate: input.start_date,
      endDate: input.end_date,
      externalId: input.external_id,
      createdBy: createdByOf(context.actor),
      now: this.clock.now(),
    };
    // Validate before taking a slot, so a bad request never holds one.
    projectDecider.decide(create, projectDecider.initialState());
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(workspaceId),
      { type: 'ReserveProjectSlot', projectId: id },
      context,
      { waitForReadModels: false },
    );
    await this.repository.execute(projectDecider, projectStream(id), create, context);
    return { id };
  }
}
