import { Decider } from '../shared/decider';
import { ignoreUnknownEvent } from '../shared/event-schema';
import { conflict, notFound, limitReached } from '../shared/domain-error';
import {
  ApiKeyScope,
  MemberRole,
  Plan,
  WorkspaceEvent,
} from './workspace.events';

export const workspaceStream = (workspaceId: string) => `workspace-${workspaceId}`;

export interface WorkspaceState {
  exists: boolean;
  id: string | null;
  plan: Plan | null;
  projectLimit: number | null;
  /** Project ids holding a slot: reserved and not yet released. */
  projects: Set<string>;
  apiKeys: Map<string, { scope: ApiKeyScope; active: boolean }>;
  /** Members by id; `emailHash` null once erased (an erased member's email may join again). */
  members: Map<string, { emailHash: string | null; role: MemberRole }>;
}

export type WorkspaceCommand =
  | { type: 'CreateWorkspace'; id: string; name: string; plan: Plan; projectLimit: number | null; now: number }
  | { type: 'UpdateWorkspace'; plan?: Plan; projectLimit?: number | null; now: number }
  | {
      type: 'AddMember';
      memberId: string;
      role: MemberRole;
      status: string;
      title: string | null;
      emailHash: string;
      profileSealed: string;
      now: number;
    }
  | { type: 'EraseMember'; memberId: string; now: number }
  | { type: 'CreateApiKey'; keyId: string; name: string; scope: ApiKeyScope; keyHash: string; now: number }
  | { type: 'DeactivateApiKey'; keyId: string; now: number }
  | { type: 'ReserveProjectSlot'; projectId: string }
  | { type: 'ReleaseProjectSlot'; projectId: string };

export const WORKSPACE_NOT_FOUND = 'Workspace not found';
export const PROJECT_LIMIT_REACHED = 'Project limit reached for the workspace plan';
export const MEMBER_EMAIL_TAKEN = 'A member with this email already exists';
export const USER_NOT_FOUND = 'User not found';

const initialState = (): WorkspaceState => ({
  exists: false,
  id: null,
  plan: null,
  projectLimit: null,
  projects: new Set(),
  apiKeys: new Map(),
  members: new Map(),
});

function evolve(state: WorkspaceState, event: WorkspaceEvent): WorkspaceState {
  switch (event.type) {
    case 'workspace.created':
      return { ...state, exists: true, id: event.data.id, plan: event.data.plan, projectLimit: event.data.project_limit };
    case 'workspace.updated': {
      const { plan, project_limit } = event.data.changes;
      return {
        ...state,
        plan: plan ?? state.plan,
        projectLimit: project_limit === undefined ? state.projectLimit : project_limit,
      };
    }
    case 'workspace.member_added':
      return {
        ...state,
        members: new Map(state.members).set(event.data.member_id, { emailHash: event.data.email_hash, role: event.data.role }),
      };
    case 'workspace.member_erased': {
      const member = state.members.get(event.data.member_id);
      if (!member) return state;
      return { ...state, members: new Map(state.members).set(event.data.member_id, { ...member, emailHash: null }) };
    }
    case 'workspace.api_key_created':
      return {
        ...state,
        apiKeys: new Map(state.apiKeys).set(event.data.key_id, { scope: event.data.scope, active: true }),
      };
    case 'workspace.api_key_deactivated': {
      const key = state.apiKeys.get(event.data.key_id);
      if (!key) return state;
      return { ...state, apiKeys: new Map(state.apiKeys).set(event.data.key_id, { ...key, active: false }) };
    }
    // A workspace may hold hundreds of thousands of slots: copying the set per event would make
    // replay quadratic. The set is owned by the fold (a state is never used again once evolved),
    // so it is updated in place and carried over.
    case 'workspace.project_slot_reserved':
      state.projects.add(event.data.project_id);
      return { ...state };
    case 'workspace.project_slot_released':
      state.projects.delete(event.data.project_id);
      return { ...state };
    default:
      return ignoreUnknownEvent(state, event);
  }
}

function decide(command: WorkspaceCommand, state: WorkspaceState): WorkspaceEvent[] {
  if (command.type === 'CreateWorkspace') {
    if (state.exists) throw conflict('Workspace already exists');
    return [
      {
        type: 'workspace.created',
        data: {
          id: command.id,
          name: command.name,
          plan: command.plan,
          project_limit: command.projectLimit,
          created: command.now,
        },
      },
    ];
  }
  if (!state.exists || !state.id) throw notFound(WORKSPACE_NOT_FOUND);
  const workspaceId = state.id;

  switch (command.type) {
    case 'UpdateWorkspace': {
      const changes: { plan?: Plan; project_limit?: number | null } = {};
      if (command.plan !== undefined && command.plan !== state.plan) changes.plan = command.plan;
      if (command.projectLimit !== undefined && command.projectLimit !== state.projectLimit) {
        changes.project_limit = command.projectLimit;
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'workspace.updated', data: { id: workspaceId, changes, updated: command.now } }];
    }
    case 'AddMember': {
      for (const member of state.members.values()) {
        if (member.emailHash === command.emailHash) throw conflict(MEMBER_EMAIL_TAKEN);
      }
      return [
        {
          type: 'workspace.member_added',
          data: {
            workspace_id: workspaceId,
            member_id: command.memberId,
            role: command.role,
            status: command.status,
            title: command.title,
            email_hash: command.emailHash,
            profile_sealed: command.profileSealed,
            created: command.now,
          },
        },
      ];
    }
    case 'EraseMember': {
      const member = state.members.get(command.memberId);
      if (!member) throw notFound(USER_NOT_FOUND);
      if (member.emailHash === null) return [];
      return [{ type: 'workspace.member_erased', data: { workspace_id: workspaceId, member_id: command.memberId, erased: command.now } }];
    }
    case 'CreateApiKey':
      return [
        {
          type: 'workspace.api_key_created',
          data: {
            workspace_id: workspaceId,
            key_id: command.keyId,
            name: command.name,
            scope: command.scope,
            key_hash: command.keyHash,
            created: command.now,
          },
        },
      ];
    case 'DeactivateApiKey': {
      const key = state.apiKeys.get(command.keyId);
      if (!key) throw notFound('API key not found');
      if (!key.active) return [];
      return [
        { type: 'workspace.api_key_deactivated', data: { workspace_id: workspaceId, key_id: command.keyId, deactivated: command.now } },
      ];
    }
    case 'ReserveProjectSlot': {
      if (state.projects.has(command.projectId)) return [];
      if (state.projectLimit !== null && state.projects.size >= state.projectLimit) {
        throw limitReached(PROJECT_LIMIT_REACHED);
      }
      return [{ type: 'workspace.project_slot_reserved', data: { workspace_id: workspaceId, project_id: command.projectId } }];
    }
    case 'ReleaseProjectSlot':
      if (!state.projects.has(command.projectId)) return [];
      return [{ type: 'workspace.project_slot_released', data: { workspace_id: workspaceId, project_id: command.projectId } }];
  }
}

export const workspaceDecider: Decider<WorkspaceState, WorkspaceCommand, WorkspaceEvent> = {
  initialState,
  evolve,
  decide,
};
