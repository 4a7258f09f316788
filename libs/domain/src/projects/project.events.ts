import { CreatedBy } from '../shared/actor';
import { DomainEvent } from '../shared/decider';
import { Status } from '../shared/status';

/** The fields a project update may change (spec 4.1 PATCH, plus the archive flag). */
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

export type ProjectEvent = ProjectCreated | ProjectUpdated | ProjectDeleted;
