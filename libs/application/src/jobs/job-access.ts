import {
  JOB_NOT_FOUND,
  JobState,
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
import { EventSourcedRepository } from '../shared/event-sourced-repository';
import { ownDocument, ownedBy } from '../shared/tenant';
import { JOBS } from './job.projector';

/**
 * Jobs live inside a project of the caller's workspace. Every job route names the project first,
 * so a missing, foreign or deleted project answers `Project not found` before the job is looked at.
 */

/**
 * Command side: read from the project's stream, not the read model, so that the check sees a
 * deletion the moment it is appended (the create-job handler relies on that to close its race
 * with a project deletion).
 */
export async function assertOwnLiveProject(
  repository: EventSourcedRepository,
  context: CommandContext,
  projectId: string,
) {
  const { state } = await repository.load(projectDecider, projectStream(projectId));
  if (state.status !== 'live' || !ownedBy(state.workspaceId, context)) throw notFound(PROJECT_NOT_FOUND);
}

/** Query side: the project's read model document, or 404. */
export async function assertProjectVisible(read: ReadModelStore, workspaceId: string, projectId: string) {
  ownDocument(await read.get<ProjectView>(PROJECTS, projectId), workspaceId, PROJECT_NOT_FOUND);
}

/** A job of another workspace, or of another project of this one, answers like a missing job. */
export function isJobOf(state: JobState, context: CommandContext, projectId: string): boolean {
  return state.status !== 'absent' && ownedBy(state.workspaceId, context) && state.projectId === projectId;
}

/** Wraps a job command so that it runs only on a job of this workspace and project. */
export function onJobOf<Cmd>(context: CommandContext, projectId: string, command: (state: JobState) => Cmd) {
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
