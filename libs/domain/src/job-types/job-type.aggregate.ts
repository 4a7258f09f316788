import { absentFirstDecider, Decider } from '../shared/decider';
import { ignoreUnknownEvent } from '../shared/event-schema';
import { notFound, validationError } from '../shared/domain-error';
import { isPredefinedJobType } from './job-type.catalogue';
import { JobTypeEvent } from './job-type.events';
import { DEFAULT_JOB_TYPE_ICON, JOB_TYPE_NOT_FOUND, PREDEFINED_JOB_TYPE_NOT_DELETABLE } from './job-type.values';

export const jobTypeStream = (jobTypeId: string) => `job-type-${jobTypeId}`;

export type JobTypeState =
  | { status: 'absent' }
  | { status: 'live'; id: string; workspaceId: string; name: string; icon: string }
  | { status: 'deleted'; id: string; workspaceId: string };

export type JobTypeCommand =
  | { type: 'CreateJobType'; id: string; workspaceId: string; name: string; icon?: string; now: number }
  | { type: 'DeleteJobType'; id: string; now: number };

function decide(command: JobTypeCommand, state: JobTypeState): JobTypeEvent[] {
  switch (command.type) {
    case 'CreateJobType':
      if (state.status !== 'absent') return []; // the retry of a create that already happened
      // Custom ids are generated and cannot collide; this guards the catalogue's ids all the same.
      if (isPredefinedJobType(command.id)) throw validationError(`Job type id ${command.id} is reserved`);
      return [
        {
          type: 'job_type.created',
          data: {
            id: command.id,
            workspace_id: command.workspaceId,
            name: command.name,
            icon: command.icon ?? DEFAULT_JOB_TYPE_ICON,
            created: command.now,
          },
        },
      ];
    case 'DeleteJobType':
      if (isPredefinedJobType(command.id)) throw validationError(PREDEFINED_JOB_TYPE_NOT_DELETABLE);
      if (state.status !== 'live') throw notFound(JOB_TYPE_NOT_FOUND);
      return [
        { type: 'job_type.deleted', data: { id: state.id, workspace_id: state.workspaceId, deleted: command.now } },
      ];
  }
}

function evolve(state: JobTypeState, event: JobTypeEvent): JobTypeState {
  switch (event.type) {
    case 'job_type.created':
      return {
        status: 'live',
        id: event.data.id,
        workspaceId: event.data.workspace_id,
        name: event.data.name,
        icon: event.data.icon,
      };
    case 'job_type.deleted':
      if (state.status === 'absent') return state;
      return { status: 'deleted', id: state.id, workspaceId: state.workspaceId };
    default:
      return ignoreUnknownEvent(state, event);
  }
}

export const jobTypeDecider: Decider<JobTypeState, JobTypeCommand, JobTypeEvent> = absentFirstDecider(
  evolve,
  decide,
  1,
);

/** The job type as the API returns it (docs/api.md, Job types). */
export interface JobTypeView {
  id: string;
  name: string;
  icon: string;
  is_predefined: boolean;
}
