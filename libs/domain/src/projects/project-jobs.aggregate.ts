import { Decider, DomainEvent, jsonSnapshot } from '../shared/decider';

/**
 * Which jobs a project has ever had, in a stream of its own. It exists so that a project's
 * deletion and a job's creation in that project cannot both succeed unaware of each other: the
 * creation appends here and checks the project's stream; the deletion checks this stream and
 * deletes every job it lists, in one atomic write. Whichever comes second fails its expected
 * revision and is decided again against what the first did. (On the project's own stream the
 * membership would change the project's version, its ETag, with every job created.)
 */
export const projectJobsStream = (projectId: string) => `project-jobs-${projectId}`;

export type ProjectJobAdded = DomainEvent<
  'project.job_added',
  { workspace_id: string; project_id: string; job_id: string }
>;
export type ProjectJobsEvent = ProjectJobAdded;

export interface ProjectJobsState {
  /** Every job created in the project, deleted ones included, in the order they were created. */
  jobIds: string[];
}

export type ProjectJobsCommand = { type: 'AddJob'; workspaceId: string; projectId: string; jobId: string };

export const projectJobsDecider: Decider<ProjectJobsState, ProjectJobsCommand, ProjectJobsEvent> = {
  initialState: () => ({ jobIds: [] }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'project.job_added':
        return { jobIds: [...state.jobIds, event.data.job_id] };
      default:
        return state;
    }
  },
  decide: (command, state) => {
    if (state.jobIds.includes(command.jobId)) return [];
    return [
      {
        type: 'project.job_added',
        data: { workspace_id: command.workspaceId, project_id: command.projectId, job_id: command.jobId },
      },
    ];
  },
  snapshot: jsonSnapshot<ProjectJobsState>(1),
};
