import {
  DomainError,
  notFound,
  PROJECT_NOT_FOUND,
  ProjectCommand,
  projectDecider,
  ProjectState,
  projectStream,
} from '@app/domain';
import { CommandContext } from '../shared/command-context';
import { EventSourcedRepository } from '../shared/event-sourced-repository';
import { ownedBy, requireWorkspace } from '../shared/tenant';

/**
 * Runs a command on a project of the caller's workspace; any other project is "not found".
 * `expectedRevision` (If-Match) makes a stale command a 412.
 */
export async function onOwnProject(
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
