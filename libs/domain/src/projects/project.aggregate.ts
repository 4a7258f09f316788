import { CreatedBy } from '../shared/actor';
import { absentFirstDecider, Decider } from '../shared/decider';
import { ignoreUnknownEvent } from '../shared/event-schema';
import { conflict, notFound, validationError } from '../shared/domain-error';
import { OTHER_STATUS_REASON_REQUIRED, Status } from '../shared/status';
import { ProjectChanges, ProjectCreated, ProjectEvent } from './project.events';
import { END_DATE_AFTER_START, PROJECT_NOT_FOUND } from './project.values';

export const projectStream = (projectId: string) => `project-${projectId}`;

/** A project's fields: those it was created with, and those only an update sets. */
export interface ProjectFields extends Omit<ProjectCreated['data'], 'id' | 'workspace_id'> {
  laanc_number: string | null;
  archived: boolean;
  updated: number;
}

export type ProjectState =
  | { status: 'absent' }
  | { status: 'live'; id: string; workspaceId: string; fields: ProjectFields }
  | { status: 'deleted'; id: string; workspaceId: string }
  /** Its creation was abandoned (project.creation_abandoned): it never existed and never will. */
  | { status: 'abandoned'; id: string; workspaceId: string; abandonedAt: number };

export type ProjectCommand =
  | {
      type: 'CreateProject';
      id: string;
      workspaceId: string;
      name: string;
      description: string;
      status: Status;
      otherStatusReason?: string;
      startDate: string;
      endDate?: string | null;
      externalId?: string | null;
      createdBy: CreatedBy;
      now: number;
    }
  | { type: 'UpdateProject'; changes: Omit<ProjectChanges, 'archived'>; now: number }
  | { type: 'ArchiveProject'; archived: boolean; now: number }
  | { type: 'DeleteProject'; now: number }
  /** The slot reconciler's tombstone for a project reserved and never created. */
  | { type: 'AbandonProjectCreation'; id: string; workspaceId: string; now: number };

export const PROJECT_CREATION_ABANDONED =
  'The creation of this project failed part way and was abandoned; send the request again with a new Idempotency-Key';

/** Project end dates are strictly after the start (project.values.ts). */
function assertDates(start: string, end: string | null) {
  if (end !== null && end <= start) throw validationError(END_DATE_AFTER_START);
}

function decide(command: ProjectCommand, state: ProjectState): ProjectEvent[] {
  if (command.type === 'AbandonProjectCreation') {
    if (state.status !== 'absent') return []; // it was created after all, or already abandoned
    return [
      {
        type: 'project.creation_abandoned',
        data: { id: command.id, workspace_id: command.workspaceId, abandoned: command.now },
      },
    ];
  }
  if (command.type === 'CreateProject') {
    if (state.status === 'abandoned') throw conflict(PROJECT_CREATION_ABANDONED);
    if (state.status !== 'absent') return []; // same id twice: the retry of a create that already happened
    if (command.status === 'other' && !command.otherStatusReason) throw validationError(OTHER_STATUS_REASON_REQUIRED);
    const endDate = command.endDate ?? null;
    assertDates(command.startDate, endDate);
    return [
      {
        type: 'project.created',
        data: {
          id: command.id,
          workspace_id: command.workspaceId,
          name: command.name,
          description: command.description,
          status: command.status,
          other_status_reason: command.status === 'other' ? command.otherStatusReason! : null,
          start_date: command.startDate,
          end_date: endDate,
          external_id: command.externalId ?? null,
          created_by: command.createdBy,
          created: command.now,
        },
      },
    ];
  }
  if (state.status !== 'live') throw notFound(PROJECT_NOT_FOUND);
  const { fields } = state;
  const base = { id: state.id, workspace_id: state.workspaceId };

  switch (command.type) {
    case 'UpdateProject': {
      const requested = command.changes;
      if (requested.status === 'other' && !requested.other_status_reason) {
        throw validationError(OTHER_STATUS_REASON_REQUIRED);
      }
      assertDates(
        requested.start_date ?? fields.start_date,
        requested.end_date === undefined ? fields.end_date : requested.end_date,
      );
      const changes: ProjectChanges = {};
      for (const [key, value] of Object.entries(requested) as [keyof ProjectChanges, unknown][]) {
        if (value === undefined || key === 'other_status_reason') continue;
        if (fields[key] !== value) (changes as Record<string, unknown>)[key] = value;
      }
      const statusTouched = requested.status !== undefined;
      if (statusTouched) {
        const reason = requested.status === 'other' ? requested.other_status_reason! : null;
        if (reason !== fields.other_status_reason) changes.other_status_reason = reason;
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'project.updated', data: { ...base, changes, updated: command.now } }];
    }
    case 'ArchiveProject':
      if (fields.archived === command.archived) return [];
      return [
        { type: 'project.updated', data: { ...base, changes: { archived: command.archived }, updated: command.now } },
      ];
    case 'DeleteProject':
      return [{ type: 'project.deleted', data: { ...base, deleted: command.now } }];
  }
}

function evolve(state: ProjectState, event: ProjectEvent): ProjectState {
  switch (event.type) {
    case 'project.created': {
      const d = event.data;
      return {
        status: 'live',
        id: d.id,
        workspaceId: d.workspace_id,
        fields: {
          name: d.name,
          description: d.description,
          status: d.status,
          other_status_reason: d.other_status_reason,
          start_date: d.start_date,
          end_date: d.end_date,
          external_id: d.external_id,
          laanc_number: null,
          archived: false,
          created_by: d.created_by,
          created: d.created,
          updated: d.created,
        },
      };
    }
    case 'project.updated':
      if (state.status !== 'live') return state;
      return {
        ...state,
        fields: { ...state.fields, ...event.data.changes, updated: event.data.updated } as ProjectFields,
      };
    case 'project.deleted':
      if (state.status === 'absent' || state.status === 'abandoned') return state;
      return { status: 'deleted', id: state.id, workspaceId: state.workspaceId };
    case 'project.creation_abandoned':
      if (state.status !== 'absent') return state;
      return {
        status: 'abandoned',
        id: event.data.id,
        workspaceId: event.data.workspace_id,
        abandonedAt: event.data.abandoned,
      };
    default:
      return ignoreUnknownEvent(state, event);
  }
}

export const projectDecider: Decider<ProjectState, ProjectCommand, ProjectEvent> = absentFirstDecider(
  evolve,
  decide,
  1,
);

/** The project as the API returns it (docs/api.md, Projects); shared by the projector and temporal reads. */
export function projectView(id: string, fields: ProjectFields) {
  return {
    id,
    name: fields.name,
    description: fields.description,
    status: fields.status,
    start_date: fields.start_date,
    end_date: fields.end_date,
    created: fields.created,
    updated: fields.updated,
    archived: fields.archived,
    external_id: fields.external_id,
    laanc_number: fields.laanc_number,
    created_by: fields.created_by,
  };
}
export type ProjectView = ReturnType<typeof projectView>;
