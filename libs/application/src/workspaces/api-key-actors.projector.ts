import { Actor, actorFields, WorkspaceEvent } from '@app/domain';
import { RecordedEvent } from '../ports/event-store.port';
import { WriteOp } from '../ports/read-model.port';
import { Projector } from '../projections/projector';

export const API_KEY_ACTORS = 'api_key_actors';

/** Who created an API key and who deactivated it: the actors of its events (their metadata). */
export interface ApiKeyActorsDoc {
  id: string;
  created_by: Actor;
  deactivated: number | null;
  deactivated_by: Actor | null;
}

const HANDLES = ['workspace.api_key_created', 'workspace.api_key_deactivated'] as const;
type Handled = Extract<WorkspaceEvent, { type: (typeof HANDLES)[number] }>;

/**
 * A projection of its own beside the API keys' documents (`workspaces`), so that those keep the
 * shape every release gave them, and a service that gains this projection fills it from the
 * history at its first start. One document per key, listed like the key (its creation's position).
 */
export const apiKeyActorsProjector: Projector = {
  name: 'api_key_actors',
  collections: [{ name: API_KEY_ACTORS }],
  handles: HANDLES,
  project(recorded: RecordedEvent): WriteOp[] {
    const event = recorded as unknown as Handled;
    const actor = actorFields(recorded.metadata.actor);
    switch (event.type) {
      case 'workspace.api_key_created': {
        const doc: ApiKeyActorsDoc = {
          id: event.data.key_id,
          created_by: actor,
          deactivated: null,
          deactivated_by: null,
        };
        return [
          {
            op: 'put',
            collection: API_KEY_ACTORS,
            id: event.data.key_id,
            workspaceId: event.data.workspace_id,
            seq: recorded.position,
            doc: { ...doc },
          },
        ];
      }
      case 'workspace.api_key_deactivated':
        return [
          {
            op: 'merge',
            collection: API_KEY_ACTORS,
            id: event.data.key_id,
            set: { deactivated: event.data.deactivated, deactivated_by: actor },
          },
        ];
      default:
        return [];
    }
  },
};
