import { EventSchema } from '../shared/event-schema';
import { JobTypeEvent } from './job-type.events';

/** Schema versions of the job-types events; every type is listed (the compiler checks), each with its upcasters. */
export const JOB_TYPE_EVENT_SCHEMAS = {
  'job_type.created': { version: 1 },
  'job_type.deleted': { version: 1 },
} as const satisfies Record<JobTypeEvent['type'], EventSchema>;
