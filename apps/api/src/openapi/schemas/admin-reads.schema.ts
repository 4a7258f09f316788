import type { WorkspaceList, WorkspaceListItem } from '@app/application';
import { API_KEY_SCOPES, PLANS } from '@app/domain';
import { EXAMPLE, millis, NEXT_CURSOR, PAGE_COUNT } from './common.schema';
import { schemaOf } from './schema-table';
import { TeamMemberListItemSchema } from './team.schema';

export const WorkspaceListItemSchema = schemaOf<WorkspaceListItem>(
  { name: 'AdminWorkspace', description: 'A workspace as the operator sees it: plan, limit and usage.' },
  {
    id: { example: EXAMPLE.workspaceId },
    name: { example: 'Skyline Surveys' },
    plan: { enum: [...PLANS], example: 'enterprise' },
    project_limit: { type: 'integer', nullable: true, description: 'null: no limit', example: 100 },
    projects_used: { type: 'integer', minimum: 0, description: 'Projects counted against the limit', example: 12 },
    api_keys: { type: 'integer', minimum: 0, description: 'API keys ever created, active or not', example: 3 },
    active_api_keys: { type: 'integer', minimum: 0, example: 2 },
    members: { type: 'integer', minimum: 0, example: 8 },
    created: millis(),
    updated: millis(),
  },
);

export const WorkspaceListSchema = schemaOf<WorkspaceList>(
  { name: 'AdminWorkspaceList', description: 'A page of workspaces, in the order they were created.' },
  { workspaces: { type: () => [WorkspaceListItemSchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);

/** An API key as the operator lists it: never the secret, nor its hash. */
export interface AdminApiKey {
  id: string;
  name: string;
  scope: string;
  status: string;
  created: number;
  last_used_at: number | null;
}

export const AdminApiKeySchema = schemaOf<AdminApiKey>(
  { name: 'AdminApiKey', description: 'An API key as listed: never the secret, nor its hash.' },
  {
    id: { example: EXAMPLE.apiKeyId },
    name: { example: 'CI pipeline' },
    scope: { enum: [...API_KEY_SCOPES], example: 'full_access' },
    status: { enum: ['active', 'inactive'], example: 'active' },
    created: millis(),
    last_used_at: millis('Last use, to the minute (Unix time in milliseconds); null when never used', {
      nullable: true,
    }),
  },
);

export const AdminApiKeyListSchema = schemaOf<{ api_keys: AdminApiKey[]; count: number; cursor: string | null }>(
  { name: 'AdminApiKeyList', description: "A page of a workspace's API keys, in the order they were created." },
  { api_keys: { type: () => [AdminApiKeySchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);

export const AdminMemberListSchema = schemaOf<{ members: unknown[]; count: number; cursor: string | null }>(
  { name: 'AdminMemberList', description: "A page of a workspace's members, in the order they were added." },
  { members: { type: () => [TeamMemberListItemSchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);
