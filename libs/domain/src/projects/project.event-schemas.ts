import { EventSchema } from '../shared/event-schema';
import { ProjectJobsEvent } from './project-jobs.aggregate';
import { ProjectEvent } from './project.events';

/** Schema versions of the projects events; every type is listed (the compiler checks), each with its upcasters. */
export const PROJECT_EVENT_SCHEMAS = {
  'project.created': { version: 1 },
  'project.updated': { version: 1 },
  'project.deleted': { version: 1 },
  'project.job_added': { version: 1 },
  'project.creation_abandoned': { version: 1 },
} as const satisfies Record<ProjectEvent['type'] | ProjectJobsEvent['type'], EventSchema>;
