import {
  jobDecider,
  jobStream,
  JobView,
  projectJobsDecider,
  projectJobsStream,
  workspaceDecider,
  workspaceStream,
} from '@app/domain';
import { ReadModelStore } from '../ports/read-model.port';
import { JOBS } from '../jobs/job.projector';
import { UnitOfWork } from '../shared/event-sourced-repository';

const PAGE = 500;

/**
 * What goes with a deleted project, decided in the same unit of work as its deletion (the DELETE,
 * or the slot reconciler finishing one cut short): a `job.deleted` for each of its live jobs, then
 * the release of its workspace slot. The jobs are those the project's job list names (loaded, so
 * checked at the write: a job created meanwhile makes the write fail and be decided again) plus
 * `projected`, the ones the read models show from before projects listed their jobs.
 * Returns how many jobs it deleted and whether a slot was released (none is below zero).
 */
export async function cascadeProjectDeletion(
  unit: UnitOfWork,
  workspaceId: string,
  projectId: string,
  projected: string[],
  now: number,
): Promise<{ jobsDeleted: number; released: boolean }> {
  const { state: members } = await unit.load(projectJobsDecider, projectJobsStream(projectId));
  let deleted = 0;
  for (const jobId of new Set([...members.jobIds, ...projected])) {
    const { state: job } = await unit.load(jobDecider, jobStream(jobId));
    if (job.status !== 'live' || job.projectId !== projectId) continue;
    await unit.decide(jobDecider, jobStream(jobId), { type: 'DeleteJob', now }, { order: 'first' });
    deleted++;
  }
  return { jobsDeleted: deleted, released: await releaseProjectSlot(unit, workspaceId, projectId) };
}

/**
 * Gives the project's slot back to its workspace, appended last (after the project's own end, on a
 * store that appends stream by stream). False when there was no slot to give back.
 */
export async function releaseProjectSlot(unit: UnitOfWork, workspaceId: string, projectId: string): Promise<boolean> {
  const release = await unit.decide(
    workspaceDecider,
    workspaceStream(workspaceId),
    { type: 'ReleaseProjectSlot', projectId },
    { order: 'last' },
  );
  return release.events.length > 0;
}

/** Ids of the project's jobs in the read models (read before the unit of work: it may run again). */
export async function projectJobIdsInReadModels(
  read: ReadModelStore,
  workspaceId: string,
  projectId: string,
): Promise<string[]> {
  const ids: string[] = [];
  let afterSeq: number | undefined;
  for (;;) {
    const jobs = await read.find<JobView>(JOBS, {
      workspaceId,
      where: { project_id: projectId },
      afterSeq,
      limit: PAGE,
    });
    ids.push(...jobs.map((job) => job.id));
    if (jobs.length < PAGE) return ids;
    afterSeq = jobs[jobs.length - 1].seq;
  }
}
