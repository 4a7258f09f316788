import { COMMON_MESSAGES, NAME_LIMITS } from '../shared/common.values';
import { API_KEY_SCOPES, MEMBER_ROLES, PLANS } from './workspace.events';

/**
 * Bounds and messages of workspace provisioning (docs/operator-contract.md): workspaces, members and
 * API keys, in the style of job.values.ts. The operator DTOs and the OpenAPI document read them here.
 */

export const MEMBER_STATUSES = ['active', 'invited', 'inactive'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const WORKSPACE_LIMITS = {
  name: NAME_LIMITS,
  /** A project limit above a billion is a typo, not a plan. */
  projectLimit: { min: 0, max: 1_000_000_000 },
  apiKeyName: NAME_LIMITS,
} as const;

export const MEMBER_LIMITS = {
  email: { min: 3, max: 254 },
  firstName: 100,
  lastName: 100,
  title: 100,
  phoneNumber: 50,
  profilePicture: 2048,
} as const;

/** The answer to a successful change (docs/operator-contract.md). */
export const WORKSPACE_ANSWERS = { updated: 'Workspace updated successfully' } as const;

export const WORKSPACE_MESSAGES = {
  nameRequired: COMMON_MESSAGES.nameRequired,
  nameLength: COMMON_MESSAGES.nameLength,
  plan: `plan must be one of: ${PLANS.join(', ')}`,
  projectLimit: 'project_limit must be a non-negative integer or null',
  nothingToUpdate: 'At least one field to update is required (plan, project_limit)',
  scope: `scope must be one of: ${API_KEY_SCOPES.join(', ')}`,
} as const;

export const MEMBER_MESSAGES = {
  emailRequired: 'email is required',
  email: 'email must be a valid email address',
  role: `role must be one of: ${MEMBER_ROLES.join(', ')}`,
  firstNameLength: 'first_name must not exceed 100 characters',
  lastNameLength: 'last_name must not exceed 100 characters',
  titleLength: 'title must not exceed 100 characters',
  phoneNumberLength: 'phone_number must not exceed 50 characters',
  profilePictureLength: 'profile_picture must not exceed 2048 characters',
  profilePictureUrl: 'profile_picture must be an http(s) URL',
  status: `status must be one of: ${MEMBER_STATUSES.join(', ')}`,
} as const;
