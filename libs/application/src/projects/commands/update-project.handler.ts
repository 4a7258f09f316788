import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
  notFound,
  preconditionFailed,
  PROJECT_NOT_FOUND,
  ProjectCommand,
  projectDecider,
  ProjectState,
  projectStream,
  workspaceDecider,
  workspaceStream,
} from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { deleteProjectJobs } from '../../jobs/commands/delete-project-jobs';
import { CommandContext } from '../../shared/command-context';
import { EventSourcedRepository, STALE_IF_MATCH } from '../../shared/event-sourced-repository';
import { ownedBy, requireWorkspace } from '../../shared/tenant';
import { ArchiveProjectCommand, DeleteProjectCommand, UpdateProjectCommand } from './update-project.command';

/**
 * Runs a command on a project of the caller's workspace; any other project is "not found".
 * `expectedRevision` (If-Match) makes a stale command a 412.
 */
async function onOwnProject(
  repository: EventSourcedRepository,
  context: CommandContext,
  projectId: string,
  command: ProjectCommand,
  expectedRevision?: number,
) {
  requireWorkspace(context);
  try {
    return await repository.execute(
      projectDecider,
      projectStream(projectId),
      (state: ProjectState) => {
        if (state.status === 'absent' || !ownedBy(state.workspaceId, context)) throw notFound(PROJECT_NOT_FOUND);
        return command;
      },
      context,
      { expectedRevision },
    );
  } catch (error) {
    // The repository compares the revision before the decision sees the state; a project the
    // caller cannot see must still be a 404, not a 412 that would confirm it exists.
    if (expectedRevision !== undefined && error instanceof DomainError && error.kind === 'precondition_failed') {
      const { state } = await repository.load(projectDecider, projectStream(projectId));
      if (state.status !== 'live' || !ownedBy(state.workspaceId, context)) throw notFound(PROJECT_NOT_FOUND);
    }
    throw error;
  }
}

@CommandHandler(UpdateProjectCommand)
export class UpdateProjectHandler implements ICommandHandler<UpdateProjectCommand, { revision: number }> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ context, projectId, changes, expectedRevision }: UpdateProjectCommand) {
    const outcome = await onOwnProject(
      this.repository,
      context,
      projectId,
      { type: 'UpdateProject', changes, now: this.clock.now() },
      expectedRevision,
    );
    return { revision: outcome.revision };
  }
}

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

@CommandHandler(DeleteProjectCommand)
export class DeleteProjectHandler implements ICommandHandler<DeleteProjectCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
  ) {}

  async execute({ context, projectId, expectedRevision }: DeleteProjectCommand) {
    const workspaceId = requireWorkspace(context);
    // Its jobs go first (spec 3.4), each with its own job.deleted: a failure part-way leaves the
    // project in place, and a retried DELETE finishes. A second sweep catches jobs created meanwhile.
    const { state, revision } = await this.repository.load(projectDecider, projectStream(projectId));
    if (state.status !== 'live' || !ownedBy(state.workspaceId, context)) throw notFound(PROJECT_NOT_FOUND);
    // A stale If-Match must stop the delete before its jobs go; checked again on the delete itself.
    if (expectedRevision !== undefined && expectedRevision !== revision) throw preconditionFailed(STALE_IF_MATCH);
    const cascade = { repository: this.repository, read: this.read, clock: this.clock };
    await deleteProjectJobs(cascade, context, workspaceId, projectId);
    await onOwnProject(this.repository, context, projectId, { type: 'DeleteProject', now: this.clock.now() }, expectedRevision);
    await deleteProjectJobs(cascade, context, workspaceId, projectId);
    await this.repository.execute(
      workspaceDecider,
      workspaceStream(workspaceId),
      { type: 'ReleaseProjectSlot', projectId },
      context,
      { waitForReadModels: false },
    );
  }
}
