import { Query } from '@nestjs/cqrs';

/** A workspace as the operator sees it: its plan and limit, and how much of it is in use. */
export interface WorkspaceListItem {
  id: string;
  name: string;
  plan: string;
  project_limit: number | null;
  /** Projects in the workspace's read model (archived ones count; deleted ones do not). */
  projects_used: number;
  /** API keys ever created in the workspace, active or not. */
  api_keys: number;
  active_api_keys: number;
  members: number;
  created: number;
  updated: number;
}

export interface WorkspaceList {
  workspaces: WorkspaceListItem[];
  count: number;
  cursor: string | null;
}

/** Longest accepted `q`: a workspace name is at most this long too. */
export const WORKSPACE_SEARCH_MAX = 100;
export const WORKSPACE_SEARCH_MESSAGE = `q must be a string of 1 to ${WORKSPACE_SEARCH_MAX} characters`;

/** Every workspace in the order they were created, a page at a time; `q` keeps those whose name contains it. */
export class ListWorkspacesQuery extends Query<WorkspaceList> {
  constructor(readonly filter: { q?: string; cursor?: string }) {
    super();
  }
}
