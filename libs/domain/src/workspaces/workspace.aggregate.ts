import { Set as ImmutableSet } from 'immutable';
import { Decider } from '../shared/decider';
import { ignoreUnknownEvent } from '../shared/event-schema';
import { conflict, notFound, limitReached, validationError } from '../shared/domain-error';
import { isStatus, Status, STATUS_MESSAGE } from '../shared/status';
import { StatusLabels, statusLabelInput } from './status-labels';
import { ApiKeyScope, MemberRole, Plan, WorkspaceEvent } from './workspace.events';

export const workspaceStream = (workspaceId: string) => `workspace-${workspaceId}`;

export interface WorkspaceState {
  exists: boolean;
  id: string | null;
  plan: Plan | null;
  projectLimit: number | null;
  /**
   * The projects holding a slot: reserved and not yet released. The set, not a count, because a
   * reservation and a release must each happen once per project, and the workspace's stream is
   * the only record of a reservation whose project was never written: on a store that appends
   * stream by stream (EventStoreDB) a create can stop between the two, and its retry (the same
   * project id, derived from the Idempotency-Key) must not take a second slot. A retried release
   * must not give one back twice either. Its size is the number of live projects (bounded by the
   * plan's limit where there is one), not the length of the stream: churn leaves it as small as
   * it was. A persistent set (Immutable.js), because a state must never be changed in place (a
   * command decided on it may be thrown away) and copying a plain `Set` per event would make a
   * fold quadratic in its size: an event copies a short path of the set's trie, so a fold stays
   * linear. A snapshot stores the ids, and is taken less often as they grow (`entries`).
   */
  slotHolders: ImmutableSet<string>;
  /** `slotHolders.size`: the slots held. */
  projectSlots: number;
  apiKeys: Map<string, { scope: ApiKeyScope; active: boolean }>;
  /** Members by id; `emailHash` null once erased (an erased member's email may join again). */
  members: Map<string, { emailHash: string | null; role: MemberRole }>;
  /** The statuses the workspace renamed for its dashboard, with their labels. */
  statusLabels: StatusLabels;
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
  /** Labels as typed, by status; an empty one gives the status its default label back. */
  | { type: 'ChangeStatusLabels'; labels: Record<string, unknown>; now: number }
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
  slotHolders: ImmutableSet<string>(),
  projectSlots: 0,
  apiKeys: new Map(),
  members: new Map(),
  statusLabels: {},
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
    case 'workspace.status_labels_changed':
      return { ...state, statusLabels: { ...event.data.labels } };
    // decide never records a project's reservation or release twice; a history that holds one
    // twice all the same (written by hand, or restored from another store) counts it once.
    case 'workspace.project_slot_reserved':
      return withSlotHolders(state, state.slotHolders.add(event.data.project_id));
    case 'workspace.project_slot_released':
      return withSlotHolders(state, state.slotHolders.delete(event.data.project_id));
    default:
      return ignoreUnknownEvent(state, event);
  }
}

/** `state` itself when the set is unchanged (Immutable.js answers the very same set then). */
function withSlotHolders(state: WorkspaceState, slotHolders: ImmutableSet<string>): WorkspaceState {
  return slotHolders === state.slotHolders ? state : { ...state, slotHolders, projectSlots: slotHolders.size };
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
    case 'ChangeStatusLabels': {
      const changes: Partial<Record<Status, string | null>> = {};
      const labels: StatusLabels = { ...state.statusLabels };
      for (const [status, raw] of Object.entries(command.labels)) {
        if (!isStatus(status)) throw validationError(STATUS_MESSAGE);
        const input = statusLabelInput(status, raw);
        if (input.problem !== undefined) throw validationError(input.problem);
        if (input.label === (state.statusLabels[status] ?? null)) continue;
        changes[status] = input.label;
        if (input.label === null) delete labels[status];
        else labels[status] = input.label;
      }
      if (Object.keys(changes).length === 0) return [];
      return [
        {
          type: 'workspace.status_labels_changed',
          data: { workspace_id: workspaceId, changes, labels, changed: command.now },
        },
      ];
    }
    // Once per project (see slotHolders): a project holding a slot already takes no second one,
    // and one holding none gives none back.
    case 'ReserveProjectSlot': {
      if (state.slotHolders.has(command.projectId)) return [];
      if (state.projectLimit !== null && state.projectSlots >= state.projectLimit) {
        throw limitReached(PROJECT_LIMIT_REACHED);
      }
      return [
        { type: 'workspace.project_slot_reserved', data: { workspace_id: workspaceId, project_id: command.projectId } },
      ];
    }
    case 'ReleaseProjectSlot':
      if (!state.slotHolders.has(command.projectId)) return [];
      return [
        { type: 'workspace.project_slot_released', data: { workspace_id: workspaceId, project_id: command.projectId } },
      ];
  }
}

interface StoredWorkspace extends Omit<WorkspaceState, 'apiKeys' | 'members' | 'slotHolders'> {
  slotHolders: string[];
  apiKeys: [string, { scope: ApiKeyScope; active: boolean }][];
  members: [string, { emailHash: string | null; role: MemberRole }][];
}

export const workspaceDecider: Decider<WorkspaceState, WorkspaceCommand, WorkspaceEvent> = {
  initialState,
  evolve,
  decide,
  snapshot: {
    // 4: the status labels. A snapshot of another version is not used: the stream is folded again
    // (a version-3 snapshot has no labels; a version-2 one had only the count of slots, which
    // cannot say whose slots they are).
    version: 4,
    toSnapshot: (state): StoredWorkspace => ({
      ...state,
      slotHolders: state.slotHolders.toArray(),
      apiKeys: [...state.apiKeys],
      members: [...state.members],
    }),
    fromSnapshot: (stored) => {
      const s = stored as StoredWorkspace;
      const slotHolders = ImmutableSet(s.slotHolders);
      return {
        ...s,
        slotHolders,
        projectSlots: slotHolders.size,
        apiKeys: new Map(s.apiKeys),
        members: new Map(s.members),
      };
    },
    entries: (state) => state.slotHolders.size + state.apiKeys.size + state.members.size,
  },
};
