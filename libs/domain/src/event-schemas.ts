import { JobTypeEvent } from './job-types/job-type.events';
import { JOB_TYPE_EVENT_SCHEMAS } from './job-types/job-type.event-schemas';
import { JobEvent } from './jobs/job.events';
import { JOB_EVENT_SCHEMAS } from './jobs/job.event-schemas';
import { ProjectJobsEvent } from './projects/project-jobs.aggregate';
import { ProjectEvent } from './projects/project.events';
import { PROJECT_EVENT_SCHEMAS } from './projects/project.event-schemas';
import { EventSchema, EventSchemaRegistry } from './shared/event-schema';
import { WebhookEvent } from './webhooks/webhook.events';
import { WEBHOOK_EVENT_SCHEMAS } from './webhooks/webhook.event-schemas';
import { WorkspaceEvent } from './workspaces/workspace.events';
import { WORKSPACE_EVENT_SCHEMAS } from './workspaces/workspace.event-schemas';

/** Every event this release knows. */
export type KnownEvent = WorkspaceEvent | ProjectEvent | ProjectJobsEvent | JobEvent | JobTypeEvent | WebhookEvent;

/**
 * The schema of every event type this release knows, assembled from the aggregates' own lists.
 * An event type missing here would be read as unknown: the compiler checks that none is.
 */
export const EVENT_SCHEMAS = {
  ...WORKSPACE_EVENT_SCHEMAS,
  ...PROJECT_EVENT_SCHEMAS,
  ...JOB_EVENT_SCHEMAS,
  ...JOB_TYPE_EVENT_SCHEMAS,
  ...WEBHOOK_EVENT_SCHEMAS,
} as const satisfies Record<KnownEvent['type'], EventSchema>;

/** The one registry writers stamp versions from and reads upcast through (docs/events.md). */
export const eventSchemas = new EventSchemaRegistry(EVENT_SCHEMAS);
