import { DomainEvent } from '../shared/decider';
import { Status } from '../shared/status';

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const MEMBER_ROLES = ['root', 'project_manager', 'ops_lead', 'pilot', 'client'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const API_KEY_SCOPES = ['read_only', 'full_access'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A team member's personal data: never recorded in clear (crypto-shredding, docs/privacy.md). */
export interface MemberProfile {
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  profile_picture: string | null;
}

export type WorkspaceCreated = DomainEvent<
  'workspace.created',
  { id: string; name: string; plan: Plan; project_limit: number | null; created: number }
>;
export type WorkspaceUpdated = DomainEvent<
  'workspace.updated',
  { id: string; changes: { plan?: Plan; project_limit?: number | null }; updated: number }
>;
/**
 * `profile_sealed` is the MemberProfile encrypted with the member's own key; `email_hash` a keyed
 * hash of the normalised email, so that uniqueness can be checked without the email itself.
 */
export type MemberAdded = DomainEvent<
  'workspace.member_added',
  {
    workspace_id: string;
    member_id: string;
    role: MemberRole;
    status: string;
    title: string | null;
    email_hash: string;
    profile_sealed: string;
    created: number;
  }
>;
/** The member's key was destroyed: their personal data is unreadable everywhere from now on. */
export type MemberErased = DomainEvent<
  'workspace.member_erased',
  { workspace_id: string; member_id: string; erased: number }
>;
/** Only the SHA-256 of the key is ever recorded; the key itself is shown once and forgotten. */
export type ApiKeyCreated = DomainEvent<
  'workspace.api_key_created',
  { workspace_id: string; key_id: string; name: string; scope: ApiKeyScope; key_hash: string; created: number }
>;
export type ApiKeyDeactivated = DomainEvent<
  'workspace.api_key_deactivated',
  { workspace_id: string; key_id: string; deactivated: number }
>;
/**
 * A member renamed statuses for the dashboard: `changes` holds each status given a label, or null
 * for one given back its default; `labels` every label of the workspace after the change.
 */
export type StatusLabelsChanged = DomainEvent<
  'workspace.status_labels_changed',
  {
    workspace_id: string;
    changes: Partial<Record<Status, string | null>>;
    labels: Partial<Record<Status, string>>;
    changed: number;
  }
>;
/**
 * Project slots make the plan's project limit an invariant of the workspace stream: two
 * concurrent creates race on one stream revision, so the limit can never be overshot.
 */
export type ProjectSlotReserved = DomainEvent<
  'workspace.project_slot_reserved',
  { workspace_id: string; project_id: string }
>;
export type ProjectSlotReleased = DomainEvent<
  'workspace.project_slot_released',
  { workspace_id: string; project_id: string }
>;

export type WorkspaceEvent =
  | WorkspaceCreated
  | WorkspaceUpdated
  | MemberAdded
  | MemberErased
  | ApiKeyCreated
  | ApiKeyDeactivated
  | StatusLabelsChanged
  | ProjectSlotReserved
  | ProjectSlotReleased;
