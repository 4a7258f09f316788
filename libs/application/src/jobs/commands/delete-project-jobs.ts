import { DomainError, jobDecider, jobStream, JobView } from '@app/domain';
import { Clock } from '../../ports/clock.port';
import { ReadModelStore } from '../../ports/read-model.port';
import { CommandContext } from '../../shared/command-context';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { JOBS } from '../job.projector';

const BATCH = 200;

/**
 * Deletes every job of a project that the read models show, recording one `job.deleted` per job
 * (with the request's correlation id) so auditors and webhook consumers see each job that went;
 * the projector removes its assignments with it, and its occurrences, being derived, go too.
 * Resolves once the read models show the deletions.
 *
 * The project deletion calls it twice: before `project.deleted`, so that a failure part-way leaves
 * the project in place for a retried DELETE to finish, and after it, for jobs created meanwhile.
 * A job appended after `project.deleted` is removed by the create-job handler itself.
 */
export async function deleteProjectJobs(
  deps: { repository: EventSourcedRepository; read: ReadModelStore; clock: Clock },
  context: CommandContext,
  workspaceId: string,
  projectId: string,
): Promise<void> {
  const now = deps.clock.now();
  let afterSeq: number | undefined;
  for (;;) {
    const jobs = await deps.read.find<JobView>(JOBS, { workspaceId, where: { project_id: projectId }, afterSeq, limit: BATCH });
    if (jobs.length === 0) return;
    await Promise.all(
      jobs.map((job) =>
        deps.repository
          .execute(jobDecider, jobStream(job.id), { type: 'DeleteJob', now }, context)
          .catch((error: unknown) => {
            // Deleted meanwhile by its own DELETE: the outcome wanted all along.
            if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
          }),
      ),
    );
    afterSeq = jobs[jobs.length - 1].seq;
  }
}
