import { EventSchema } from '../shared/event-schema';
import { WorkspaceEvent } from './workspace.events';

/** Schema versions of the workspaces events; every type is listed (the compiler checks), each with its upcasters. */
export const WORKSPACE_EVENT_SCHEMAS = {
  'workspace.created': { version: 1 },
  'workspace.updated': { version: 1 },
  'workspace.member_added': { version: 1 },
  'workspace.member_erased': { version: 1 },
  'workspace.api_key_created': { version: 1 },
  'workspace.api_key_deactivated': { version: 1 },
  'workspace.status_labels_changed': { version: 1 },
  'workspace.project_slot_reserved': { version: 1 },
  'workspace.project_slot_released': { version: 1 },
} as const satisfies Record<WorkspaceEvent['type'], EventSchema>;
