import {
  JOB_NOT_FOUND,
  JobCommand,
  jobDecider,
  JobState,
  jobStream,
  JobView,
  notFound,
  PROJECT_NOT_FOUND,
  projectDecider,
  projectStream,
  ProjectView,
} from '@app/domain';
import { ReadModelStore } from '../ports/read-model.port';
import { PROJECTS } from '../projects/project.projector';
import { CommandContext } from '../shared/command-context';
import { EventSourcedRepository, UnitOfWork } from '../shared/event-sourced-repository';
import { ownDocument, ownedBy } from '../shared/tenant';
import { JOBS } from './job.projector';

/**
 * Jobs live inside a project of the caller's workspace. Every job route names the project first,
 * so a missing, foreign or deleted project answers `Project not found` before the job is looked at.
 */

/**
 * Command side, inside a unit of work: the project's stream, not the read model, so that the check
 * sees a deletion the moment it is appended. The unit's write is conditional on that stream at the
 * revision seen (appended or checked), so a project deleted meanwhile makes the write conflict and
 * the retry answer 404: no job changes, or is created, under a deleted project.
 */
export async function assertOwnLiveProject(unit: UnitOfWork, context: CommandContext, projectId: string) {
  const { state } = await unit.load(projectDecider, projectStream(projectId));
  if (state.status !== 'live' || !ownedBy(state.workspaceId, context)) throw notFound(PROJECT_NOT_FOUND);
}

/**
 * Decides `command` on a job of a live project of the caller's workspace, in one unit: the project
 * first (404 `Project not found`), then the job (404 `Job not found` unless of this project).
 */
export async function decideOnJob(
  repository: EventSourcedRepository,
  context: CommandContext,
  projectId: string,
  jobId: string,
  command: (state: JobState) => JobCommand,
) {
  const { result } = await repository.transact(jobStream(jobId), context, async (unit) => {
    await assertOwnLiveProject(unit, context, projectId);
    return unit.decide(jobDecider, jobStream(jobId), onJobOf(context, projectId, command));
  });
  return result;
}

/** Query side: the project's read model document, or 404. */
export async function assertProjectVisible(read: ReadModelStore, workspaceId: string, projectId: string) {
  ownDocument(await read.get<ProjectView>(PROJECTS, projectId), workspaceId, PROJECT_NOT_FOUND);
}

/** A job of another workspace, or of another project of this one, answers like a missing job. */
function isJobOf(state: JobState, context: CommandContext, projectId: string): boolean {
  return state.status !== 'absent' && ownedBy(state.workspaceId, context) && state.projectId === projectId;
}

/** Wraps a job command so that it runs only on a job of this workspace and project. */
function onJobOf<Cmd>(context: CommandContext, projectId: string, command: (state: JobState) => Cmd) {
  return (state: JobState): Cmd => {
    if (!isJobOf(state, context, projectId)) throw notFound(JOB_NOT_FOUND);
    return command(state);
  };
}

/** A job of a project the caller can see, of this workspace and that project; any other is "not found". */
export async function visibleJob(
  read: ReadModelStore,
  workspaceId: string,
  projectId: string,
  jobId: string,
): Promise<JobView> {
  await assertProjectVisible(read, workspaceId, projectId);
  const found = ownDocument(await read.get<JobView>(JOBS, jobId), workspaceId, JOB_NOT_FOUND);
  if (found.doc.project_id !== projectId) throw notFound(JOB_NOT_FOUND);
  return found.doc;
}

/** Pilot ids of a request, each once (the response lists each pilot once). */
export const unique = (ids: string[]) => [...new Set(ids)];
