import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { jobTypeDecider, jobTypeStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ID_GENERATOR, IdGenerator } from '../../ports/id-generator.port';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { requireWorkspace } from '../../shared/tenant';
import { CreateJobTypeCommand } from './create-job-type.command';

@CommandHandler(CreateJobTypeCommand)
export class CreateJobTypeHandler implements ICommandHandler<CreateJobTypeCommand, { id: string }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async execute({ context, input }: CreateJobTypeCommand) {
    const workspaceId = requireWorkspace(context);
    const id = this.ids.next('jbt');
    await this.repository.execute(
      jobTypeDecider,
      jobTypeStream(id),
      { type: 'CreateJobType', id, workspaceId, name: input.name, icon: input.icon, now: this.clock.now() },
      context,
    );
    return { id };
  }
}
