import { Decider } from '../shared/decider';
import { ignoreUnknownEvent } from '../shared/event-schema';
import { conflict, notFound, limitReached } from '../shared/domain-error';
import { ApiKeyScope, MemberRole, Plan, WorkspaceEvent } from './workspace.events';

export const workspaceStream = (workspaceId: string) => `workspace-${workspaceId}`;

export interface WorkspaceState {
  exists: boolean;
  id: string | null;
  plan: Plan | null;
  projectLimit: number | null;
  /**
   * Slots held: projects reserved and not yet released. A count, not the set of ids: the state
   * then costs the same at ten projects and at a million. Each project's own stream makes its
   * reservation and its release happen once: both are appended atomically with the project's
   * `project.created` / `project.deleted`, whose expected revisions admit only one of each.
   */
  projectSlots: number;
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
export const API_KEY_NOT_FOUND = 'API key not found';

const initialState = (): WorkspaceState => ({
  exists: false,
  id: null,
  plan: null,
  projectLimit: null,
  projectSlots: 0,
  apiKeys: new Map(),
  members: new Map(),
});

function evolve(state: WorkspaceState, event: WorkspaceEvent): WorkspaceState {
  switch (event.type) {
    case 'workspace.created':
      return {
        ...state,
        exists: true,
        id: event.data.id,
        plan: event.data.plan,
        projectLimit: event.data.project_limit,
      };
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
        members: new Map(state.members).set(event.data.member_id, {
          emailHash: event.data.email_hash,
          role: event.data.role,
        }),
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
    case 'workspace.project_slot_reserved':
      return { ...state, projectSlots: state.projectSlots + 1 };
    case 'workspace.project_slot_released':
      return { ...state, projectSlots: Math.max(0, state.projectSlots - 1) };
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
      return [
        {
          type: 'workspace.member_erased',
          data: { workspace_id: workspaceId, member_id: command.memberId, erased: command.now },
        },
      ];
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
      if (!key) throw notFound(API_KEY_NOT_FOUND);
      if (!key.active) return [];
      return [
        {
          type: 'workspace.api_key_deactivated',
          data: { workspace_id: workspaceId, key_id: command.keyId, deactivated: command.now },
        },
      ];
    }
    // Exactly once per project: the caller appends these with the project's own creation or
    // deletion, in one atomic write (see projectSlots).
    case 'ReserveProjectSlot': {
      if (state.projectLimit !== null && state.projectSlots >= state.projectLimit) {
        throw limitReached(PROJECT_LIMIT_REACHED);
      }
      return [
        { type: 'workspace.project_slot_reserved', data: { workspace_id: workspaceId, project_id: command.projectId } },
      ];
    }
    case 'ReleaseProjectSlot':
      if (state.projectSlots === 0) return [];
      return [
        { type: 'workspace.project_slot_released', data: { workspace_id: workspaceId, project_id: command.projectId } },
      ];
  }
}

interface StoredWorkspace extends Omit<WorkspaceState, 'apiKeys' | 'members'> {
  apiKeys: [string, { scope: ApiKeyScope; active: boolean }][];
  members: [string, { emailHash: string | null; role: MemberRole }][];
}

export const workspaceDecider: Decider<WorkspaceState, WorkspaceCommand, WorkspaceEvent> = {
  initialState,
  evolve,
  decide,
  snapshot: {
    version: 2, // 2: project slots as a count (1 held the set of project ids)
    toSnapshot: (state): StoredWorkspace => ({ ...state, apiKeys: [...state.apiKeys], members: [...state.members] }),
    fromSnapshot: (stored) => {
      const s = stored as StoredWorkspace;
      return { ...s, apiKeys: new Map(s.apiKeys), members: new Map(s.members) };
    },
  },
};
