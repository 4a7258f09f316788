import { EventSchema } from '../shared/event-schema';
import { JobEvent } from './job.events';

/** Schema versions of the jobs events; every type is listed (the compiler checks), each with its upcasters. */
export const JOB_EVENT_SCHEMAS = {
  'job.created': { version: 1 },
  'job.updated': { version: 1 },
  'job.deleted': { version: 1 },
  'job.pilots_assigned': { version: 1 },
  'job.pilots_unassigned': { version: 1 },
} as const satisfies Record<JobEvent['type'], EventSchema>;
