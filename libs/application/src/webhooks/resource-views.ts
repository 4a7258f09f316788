import {
  DomainEvent,
  jobDecider,
  JobState,
  jobTypeDecider,
  JobTypeState,
  jobView,
  projectDecider,
  ProjectState,
  projectView,
  WebhookEventType,
} from '@app/domain';
import { EventStore, RecordedEvent } from '../ports/event-store.port';
import { dropOldest } from '../shared/drop-oldest';

/**
 * How one kind of aggregate appears in webhook payloads: which of its events are delivered under
 * which section-6 type, and the resource as the API's GET returns it right after an event. The
 * state is the aggregate's own fold (its decider's evolve) up to the event's revision, so a
 * delivery shows the resource exactly as of its event, however late it is sent or retried.
 *
 * Registration point: a new kind of resource adds an entry to WEBHOOK_RESOURCES, and its event
 * types to WEBHOOK_EVENT_TYPES in the domain when the API reference lists them.
 */
// The registry holds resources of different state types side by side; `any` erases them (a
// default of `unknown` would reject each concrete `evolve` in parameter position).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface WebhookResource<State = any> {
  /** Store event type -> the webhook event type it is delivered as. */
  readonly events: Readonly<Record<string, WebhookEventType>>;
  readonly initialState: () => State;
  readonly evolve: (state: State, event: DomainEvent) => State;
  /** `data` of the payload: the GET view, or for a deletion the identifiers (`id`, and `project_id` for jobs). */
  payload(state: State): Record<string, unknown> | null;
}

export const projectResource: WebhookResource<ProjectState> = {
  events: {
    'project.created': 'project.created',
    'project.updated': 'project.updated',
    'project.deleted': 'project.deleted',
  },
  initialState: projectDecider.initialState,
  evolve: projectDecider.evolve as WebhookResource<ProjectState>['evolve'],
  payload: (state) => {
    if (state.status === 'live') return projectView(state.id, state.fields);
    if (state.status === 'deleted') return { id: state.id };
    return null;
  },
};

export const jobResource: WebhookResource<JobState> = {
  events: { 'job.created': 'job.created', 'job.updated': 'job.updated', 'job.deleted': 'job.deleted' },
  initialState: jobDecider.initialState,
  evolve: jobDecider.evolve as WebhookResource<JobState>['evolve'],
  payload: (state) => {
    if (state.status === 'live') return jobView(state.id, state.projectId, state.fields);
    if (state.status === 'deleted') return { id: state.id, project_id: state.projectId };
    return null;
  },
};

export const jobTypeResource: WebhookResource<JobTypeState> = {
  events: { 'job_type.created': 'job_type.created', 'job_type.deleted': 'job_type.deleted' },
  initialState: jobTypeDecider.initialState,
  evolve: jobTypeDecider.evolve as WebhookResource<JobTypeState>['evolve'],
  // Only custom types have a history; predefined ones are never created or deleted.
  payload: (state) => {
    if (state.status === 'live') return { id: state.id, name: state.name, icon: state.icon, is_predefined: false };
    if (state.status === 'deleted') return { id: state.id };
    return null;
  },
};

export const WEBHOOK_RESOURCES: readonly WebhookResource[] = [projectResource, jobResource, jobTypeResource];

const CACHE_SIZE = 10_000;

/**
 * Folds streams up to the revision of an event, keeping the newest state of recently seen streams
 * so that following the store in order costs one evolve per event, and a stream is read only
 * after a gap (a restart, an eviction, or events that were not needed).
 */
export class ResourceViews {
  private readonly byEventType = new Map<string, { resource: WebhookResource; webhookType: WebhookEventType }>();
  private readonly cache = new Map<string, { revision: number; state: unknown }>();

  constructor(
    private readonly events: Pick<EventStore, 'readStream'>,
    resources: readonly WebhookResource[] = WEBHOOK_RESOURCES,
  ) {
    for (const resource of resources) {
      for (const [eventType, webhookType] of Object.entries(resource.events))
        this.byEventType.set(eventType, { resource, webhookType });
    }
  }

  /** The section-6 type an event is delivered as, or null when it is not delivered. */
  webhookTypeOf(eventType: string): WebhookEventType | null {
    return this.byEventType.get(eventType)?.webhookType ?? null;
  }

  /** The payload `data` for the event: its resource right after it. */
  async dataAt(event: RecordedEvent): Promise<Record<string, unknown> | null> {
    const entry = this.byEventType.get(event.type);
    if (!entry) return null;
    const state = await this.stateAt(entry.resource, event);
    return entry.resource.payload(state);
  }

  private async stateAt(resource: WebhookResource, event: RecordedEvent): Promise<unknown> {
    const cached = this.cache.get(event.streamId);
    let state: unknown;
    if (cached && cached.revision === event.revision) {
      state = cached.state;
    } else if (cached && cached.revision === event.revision - 1) {
      state = resource.evolve(cached.state, event as unknown as DomainEvent);
    } else if (event.revision === 0) {
      state = resource.evolve(resource.initialState(), event as unknown as DomainEvent);
    } else {
      const from = cached && cached.revision < event.revision ? cached.revision + 1 : 0;
      const history = await this.events.readStream(event.streamId, {
        fromRevision: from,
        maxCount: event.revision - from + 1,
      });
      const base = from === 0 ? resource.initialState() : cached!.state;
      state = history.reduce((s, e) => resource.evolve(s, e as unknown as DomainEvent), base);
    }
    this.cache.delete(event.streamId);
    this.cache.set(event.streamId, { revision: event.revision, state });
    dropOldest(this.cache, CACHE_SIZE);
    return state;
  }
}
