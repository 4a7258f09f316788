import { notFound, WORKSPACE_NOT_FOUND } from '@app/domain';
import { CommandContext } from './command-context';

/** Resource commands act inside the caller's workspace; without one there is nothing to act on. */
export function requireWorkspace(context: CommandContext): string {
  if (!context.workspaceId) throw notFound(WORKSPACE_NOT_FOUND);
  return context.workspaceId;
}

/** Another workspace's resource answers exactly like a missing one (no existence oracle). */
export function ownedBy(resourceWorkspaceId: string | null | undefined, context: { workspaceId: string | null }) {
  return !!resourceWorkspaceId && resourceWorkspaceId === context.workspaceId;
}

/**
 * A read-model document of the caller's workspace: a missing one and another workspace's are
 * "not found" alike, with the resource's message.
 */
export function ownDocument<D extends { workspaceId: string | null }>(
  found: D | null,
  workspaceId: string,
  notFoundMessage: string,
): D {
  if (!found || found.workspaceId !== workspaceId) throw notFound(notFoundMessage);
  return found;
}
