import { StatusLabels, WorkspaceEvent } from '@app/domain';
import { RecordedEvent } from '../ports/event-store.port';
import { WriteOp } from '../ports/read-model.port';
import { Projector } from '../projections/projector';

export const WORKSPACES = 'workspaces';
export const MEMBERS = 'members';
export const API_KEYS = 'api_keys';

export interface WorkspaceDoc {
  id: string;
  name: string;
  plan: string;
  project_limit: number | null;
  created: number;
  updated: number;
  /** The statuses the workspace renamed for its dashboard; absent until one is. */
  status_labels?: StatusLabels;
}

export interface ApiKeyDoc {
  id: string;
  workspace_id: string;
  name: string;
  scope: 'read_only' | 'full_access';
  status: 'active' | 'inactive';
  key_hash: string;
  created: number;
}

/**
 * A team member as stored: personal data stays sealed (null once erased); the team queries open
 * it into the shape of docs/api.md, Team.
 */
export interface MemberDoc {
  id: string;
  role: string;
  status: string;
  title: string | null;
  profile_sealed: string | null;
  created: number;
  updated: number;
}

/** The events this projection writes for; a `case` for any other type does not compile. */
const HANDLES = [
  'workspace.created',
  'workspace.updated',
  'workspace.member_added',
  'workspace.api_key_created',
  'workspace.member_erased',
  'workspace.api_key_deactivated',
  'workspace.status_labels_changed',
] as const;
type Handled = Extract<WorkspaceEvent, { type: (typeof HANDLES)[number] }>;

export const workspaceProjector: Projector = {
  name: 'workspaces',
  collections: [
    { name: WORKSPACES },
    { name: MEMBERS, workspaceIndexes: ['role'] },
    { name: API_KEYS, indexes: ['key_hash'] },
  ],
  handles: HANDLES,
  project(recorded: RecordedEvent): WriteOp[] {
    const event = recorded as unknown as Handled;
    const seq = recorded.position;
    /** A whole document, listed at the event's position. */
    const put = (collection: string, id: string, workspaceId: string, doc: object): WriteOp[] => [
      { op: 'put', collection, id, workspaceId, seq, doc: { ...doc } },
    ];
    const merge = (collection: string, id: string, set: Record<string, unknown>): WriteOp[] => [
      { op: 'merge', collection, id, set },
    ];
    switch (event.type) {
      case 'workspace.created': {
        const d = event.data;
        const doc: WorkspaceDoc = {
          id: d.id,
          name: d.name,
          plan: d.plan,
          project_limit: d.project_limit,
          created: d.created,
          updated: d.created,
        };
        return put(WORKSPACES, d.id, d.id, doc);
      }
      case 'workspace.updated':
        return merge(WORKSPACES, event.data.id, { ...event.data.changes, updated: event.data.updated });
      case 'workspace.member_added': {
        const d = event.data;
        const doc: MemberDoc = {
          id: d.member_id,
          role: d.role,
          status: d.status,
          title: d.title,
          profile_sealed: d.profile_sealed,
          created: d.created,
          updated: d.created,
        };
        return put(MEMBERS, d.member_id, d.workspace_id, doc);
      }
      case 'workspace.api_key_created': {
        const d = event.data;
        const doc: ApiKeyDoc = {
          id: d.key_id,
          workspace_id: d.workspace_id,
          name: d.name,
          scope: d.scope,
          status: 'active',
          key_hash: d.key_hash,
          created: d.created,
        };
        return put(API_KEYS, d.key_id, d.workspace_id, doc);
      }
      case 'workspace.member_erased':
        return merge(MEMBERS, event.data.member_id, { profile_sealed: null, updated: event.data.erased });
      case 'workspace.api_key_deactivated':
        return merge(API_KEYS, event.data.key_id, { status: 'inactive' });
      // The event holds every label after the change, so the document takes them whole. The
      // workspace's `updated` stays the operator's: labels are the dashboard's setting.
      case 'workspace.status_labels_changed':
        return merge(WORKSPACES, event.data.workspace_id, { status_labels: { ...event.data.labels } });
      default:
        return [];
    }
  },
};
