import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { notFound, PROJECT_NOT_FOUND, projectDecider, projectStream, workspaceStream } from '@app/domain';
import { CLOCK, Clock } from '../../ports/clock.port';
import { READ_MODEL_STORE, ReadModelStore } from '../../ports/read-model.port';
import { cascadeProjectDeletion, projectJobIdsInReadModels } from '../project-jobs-cascade';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { ownedBy, requireWorkspace } from '../../shared/tenant';
import { DeleteProjectCommand } from './delete-project.command';

/**
 * Deletes a project, every live job it has (each with its own `job.deleted`, for auditors and
 * webhook consumers) and releases its workspace slot, in one write: atomically on the embedded
 * store, so a failure leaves the project, its jobs and its slot as they were and a retried DELETE
 * finishes. The jobs are those the project's membership stream lists (checked at the same write,
 * so a job created meanwhile makes the write fail and be decided again with it), plus any the
 * read models show from before that stream existed.
 *
 * Queued on the workspace's stream with its creates. On EventStoreDB the project and its jobs are
 * deleted first and the slot released last, so a write can stop between the two. A DELETE decided
 * again then (the repository's retry after a conflict, or the client's retry after an error) finds
 * the project deleted by its own first part: it finishes the cascade (the jobs still live, the slot
 * still held) and succeeds. A project deleted with nothing left to finish is not found, as any
 * deleted project is. With If-Match, only the revision the project was deleted at is a retry of
 * that deletion. The reconciler finishes a cascade no retry came back for.
 */
@CommandHandler(DeleteProjectCommand)
export class DeleteProjectHandler implements ICommandHandler<DeleteProjectCommand> {
  constructor(
    private readonly repository: EventSourcedRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
  ) {}

  async execute({ context, projectId, expectedRevision }: DeleteProjectCommand) {
    const workspaceId = requireWorkspace(context);
    const projected = await projectJobIdsInReadModels(this.read, workspaceId, projectId);
    const now = this.clock.now();
    const workspace = workspaceStream(workspaceId);
    await this.repository.transact(workspace, context, async (unit) => {
      const stream = projectStream(projectId);
      const { state, revision } = await unit.load(projectDecider, stream);
      // A project the caller cannot see is a 404 before any If-Match is looked at.
      if (state.status === 'deleted' && ownedBy(state.workspaceId, context)) {
        // `project.deleted` is the stream's last event: a retry's If-Match names the one before.
        if (expectedRevision !== undefined && expectedRevision !== revision - 1) throw notFound(PROJECT_NOT_FOUND);
        const finished = await cascadeProjectDeletion(unit, workspaceId, projectId, projected, now);
        if (finished.jobsDeleted === 0 && !finished.released) throw notFound(PROJECT_NOT_FOUND);
        return;
      }
      if (state.status !== 'live' || !ownedBy(state.workspaceId, context)) throw notFound(PROJECT_NOT_FOUND);
      await unit.decide(projectDecider, stream, { type: 'DeleteProject', now }, { expectedRevision, order: 'first' });
      await cascadeProjectDeletion(unit, workspaceId, projectId, projected, now);
    });
  }
}
