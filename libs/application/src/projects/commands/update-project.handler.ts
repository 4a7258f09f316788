import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  notFound,
  PROJECT_NOT_FOUND,
  ProjectCommand,
  projectDecider,
  ProjectState,
  projectStream,
  workspaceDecider,
  workspaceStream,
} from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { CommandContext } from '../../shared/command-context';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { ownedBy, requireWorkspace } from '../../shared/tenant';
import { ArchiveProjectCommand, DeleteProjectCommand, UpdateProjectCommand } from './update-project.command';

/** Runs a command on a project of the caller's workspace; any other project is "not found". */
async function onOwnProject(
  repository: EventSourcedRepository,
  context: CommandContext,
  projectId: string,
  command: ProjectCommand,
) {
  requireWorkspace(context);
  return repository.execute(
    projectDecider,
    projectStream(projectId),
    (state: ProjectState) => {
      if (state.status === 'absent' || !ownedBy(state.workspaceId, context)) throw notFound(PROJECT_NOT_FOUND);
      return command;
    },
    context,
  );
}

@CommandHandler(UpdateProjectCommand)
export class UpdateProjectHandler implements ICommandHandler<UpdateProjectCommand, { revision: number }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId, changes }: UpdateProjectCommand) {
    const outcome = await onOwnProject(this.repository, context, projectId, {
      type: 'UpdateProject',
      changes,
      now: this.clock.now(),
    });
    return { revision: outcome.revision };
  }
}

@CommandHandler(ArchiveProjectCommand)
export class ArchiveProjectHandler implements ICommandHandler<ArchiveProjectCommand, { revision: number }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId, archived }: ArchiveProjectCommand) {
    const outcome = await onOwnProject(this.repository, context, projectId, {
      type: 'ArchiveProject',
      archived,
      now: this.clock.now(),
    });
    return { revision: outcome.revision };
  }
}

@CommandHandler(DeleteProjectCommand)
export class DeleteProjectHandler implements ICommandHandler<DeleteProjectCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId }: DeleteProjectCommand) {
    const workspaceId = requireWorkspace(context);
    await onOwnProject(this.repository, context, projectId, { type: 'DeleteProject', now: this.clock.now() });
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(workspaceId),
      { type: 'ReleaseProjectSlot', projectId },
      context,
      { waitForReadModels: false },
    );
  }
}
