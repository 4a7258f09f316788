import { CreatedBy } from '../shared/actor';
import { DomainEvent } from '../shared/decider';
import { Status } from '../shared/status';

/** The fields a project update may change (docs/api.md, Projects PATCH, plus the archive flag). */
export interface ProjectChanges {
  name?: string;
  description?: string;
  status?: Status;
  other_status_reason?: string | null;
  start_date?: string;
  end_date?: string | null;
  external_id?: string | null;
  laanc_number?: string | null;
  archived?: boolean;
}

export type ProjectCreated = DomainEvent<
  'project.created',
  {
    id: string;
    workspace_id: string;
    name: string;
    description: string;
    status: Status;
    other_status_reason: string | null;
    start_date: string;
    end_date: string | null;
    external_id: string | null;
    created_by: CreatedBy;
    created: number;
  }
>;
/** Carries only what changed; archiving is an update of `archived` (webhook type `project.updated`). */
export type ProjectUpdated = DomainEvent<
  'project.updated',
  { id: string; workspace_id: string; changes: ProjectChanges; updated: number }
>;
export type ProjectDeleted = DomainEvent<'project.deleted', { id: string; workspace_id: string; deleted: number }>;

/**
 * The project was reserved a slot but never created (its creation failed part way on a store
 * without multi-stream transactions), and the slot reconciler gave up on it: a tombstone, so a
 * create arriving late for this id fails, and the slot can be released.
 */
export type ProjectCreationAbandoned = DomainEvent<
  'project.creation_abandoned',
  { id: string; workspace_id: string; abandoned: number }
>;

export type ProjectEvent = ProjectCreated | ProjectUpdated | ProjectDeleted | ProjectCreationAbandoned;
