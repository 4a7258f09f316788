import { projectDecider, ProjectEvent, projectView } from '@app/domain';
import { RecordedEvent } from '../ports/event-store.port';
import { WriteOp } from '../ports/read-model.port';
import { Projector, putCreated } from '../projections/projector';

export const PROJECTS = 'projects';

/** Fields of project events that are inputs only and never shown (docs/api.md, Projects). */
const WRITE_ONLY = new Set(['other_status_reason']);

/** The events this projection writes for; a `case` for any other type does not compile. */
const HANDLES = ['project.created', 'project.updated', 'project.deleted'] as const;
type Handled = Extract<ProjectEvent, { type: (typeof HANDLES)[number] }>;

export const projectProjector: Projector = {
  name: 'projects',
  collections: [{ name: PROJECTS, workspaceIndexes: ['status', 'archived'] }],
  handles: HANDLES,
  project(recorded: RecordedEvent): WriteOp[] {
    const event = recorded as unknown as Handled;
    switch (event.type) {
      case 'project.created': {
        const d = event.data;
        // The aggregate's own evolve says what a created project holds: one definition of the defaults.
        const state = projectDecider.evolve(projectDecider.initialState(), event);
        if (state.status !== 'live') return [];
        const doc = projectView(d.id, state.fields);
        return [putCreated(recorded, PROJECTS, d.id, d.workspace_id, doc)];
      }
      case 'project.updated': {
        const set: Record<string, unknown> = { updated: event.data.updated };
        for (const [field, value] of Object.entries(event.data.changes)) if (!WRITE_ONLY.has(field)) set[field] = value;
        return [{ op: 'merge', collection: PROJECTS, id: event.data.id, version: recorded.revision, set }];
      }
      case 'project.deleted':
        return [{ op: 'delete', collection: PROJECTS, id: event.data.id }];
      default:
        return [];
    }
  },
};
