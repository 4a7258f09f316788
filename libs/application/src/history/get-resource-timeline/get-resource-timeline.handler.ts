import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  Decider,
  DomainEvent,
  jobDecider,
  jobTypeDecider,
  notFound,
  projectDecider,
  validationError,
  webhookDecider,
  workspaceDecider,
} from '@app/domain';
import { EVENT_STORE, EventStore } from '../../ports/event-store.port';
import { PersonalDataVault } from '../../privacy/personal-data-vault';
import { decodeCursor, encodeCursor, PAGE_SIZE } from '../../shared/pagination';
import { setOwnField } from '../../shared/own-field';
import { revealedEntry, toHistoryEntry } from '../history-entry';
import {
  FieldChange,
  GetResourceTimelineQuery,
  ResourceTimeline,
  TIMELINE_NOT_FOUND,
  TIMELINE_REVISION,
  TIMELINE_STREAM,
  TimelineKind,
  TimelineRevision,
} from './get-resource-timeline.query';

type AnyDecider = Pick<Decider<unknown, never, DomainEvent>, 'initialState' | 'evolve' | 'snapshot'>;

/** Stream prefixes, longest first where one begins another (`job-type-` before `job-`). */
const KINDS: readonly { prefix: string; kind: TimelineKind; decider: AnyDecider }[] = [
  { prefix: 'job-type-', kind: 'job_type', decider: jobTypeDecider as unknown as AnyDecider },
  { prefix: 'job-', kind: 'job', decider: jobDecider as unknown as AnyDecider },
  { prefix: 'project-', kind: 'project', decider: projectDecider as unknown as AnyDecider },
  { prefix: 'webhook-', kind: 'webhook', decider: webhookDecider as unknown as AnyDecider },
  { prefix: 'workspace-', kind: 'workspace', decider: workspaceDecider as unknown as AnyDecider },
];
const ID = /^[A-Za-z0-9_]{1,100}$/;

/** The resource a stream holds, or none (a project's job bookkeeping, `project-jobs-...`, is not a resource). */
export function timelineKindOf(streamId: string): { kind: TimelineKind; id: string; decider: AnyDecider } | null {
  if (streamId.startsWith('project-jobs-')) return null;
  for (const entry of KINDS) {
    if (!streamId.startsWith(entry.prefix)) continue;
    const id = streamId.slice(entry.prefix.length);
    return ID.test(id) ? { kind: entry.kind, id, decider: entry.decider } : null;
  }
  return null;
}

/** Credentials and their hashes (an API key's, a member's email hash) stay out of the states shown. */
const HIDDEN_FIELD = /secret|hash|password|token/i;

/** A state as plain JSON (its snapshot form: Maps and sets as arrays), hidden fields removed. */
export function plainState(decider: AnyDecider, state: unknown): unknown {
  const stored = decider.snapshot ? decider.snapshot.toSnapshot(state) : state;
  return withoutHidden(JSON.parse(JSON.stringify(stored ?? null)));
}

function withoutHidden(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutHidden);
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (!HIDDEN_FIELD.test(key)) setOwnField(out, key, withoutHidden(source[key]));
  }
  return out;
}

/** Nested objects are compared field by field to this depth (`fields.name`); deeper values and arrays whole. */
const DIFF_DEPTH = 2;

function flatten(value: unknown, prefix: string, depth: number, into: Map<string, string>): Map<string, string> {
  if (depth > 0 && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value))
      flatten(inner, prefix ? `${prefix}.${key}` : key, depth - 1, into);
  } else if (prefix) {
    into.set(prefix, JSON.stringify(value));
  }
  return into;
}

/** The fields that differ between two plain states, in the order they appear (after's first). */
export function diffStates(before: unknown, after: unknown): FieldChange[] {
  const was = flatten(before, '', DIFF_DEPTH, new Map());
  const is = flatten(after, '', DIFF_DEPTH, new Map());
  const changes: FieldChange[] = [];
  for (const field of new Set([...is.keys(), ...was.keys()])) {
    const a = was.get(field);
    const b = is.get(field);
    if (a === b) continue;
    changes.push({
      field,
      before: a === undefined ? undefined : JSON.parse(a),
      after: b === undefined ? undefined : JSON.parse(b),
    });
  }
  return changes;
}

@QueryHandler(GetResourceTimelineQuery)
export class GetResourceTimelineHandler implements IQueryHandler<GetResourceTimelineQuery, ResourceTimeline> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ streamId, options }: GetResourceTimelineQuery): Promise<ResourceTimeline> {
    const resource = timelineKindOf(streamId);
    if (!resource) throw validationError(TIMELINE_STREAM);
    const after = decodeCursor(options.cursor);
    if (options.revision !== undefined && !(Number.isSafeInteger(options.revision) && options.revision >= 0)) {
      throw validationError(TIMELINE_REVISION);
    }
    const history = await this.events.readStream(streamId);
    if (history.length === 0) throw notFound(TIMELINE_NOT_FOUND);
    const last = history[history.length - 1].revision;
    const selectedRevision = options.revision ?? last;
    if (selectedRevision > last) throw validationError(TIMELINE_REVISION);

    const start = after === undefined ? 0 : history.findIndex((e) => e.revision > after);
    const end = start < 0 ? -1 : Math.min(start + PAGE_SIZE, history.length);
    const { decider } = resource;
    const revisions: TimelineRevision[] = [];
    let state = decider.initialState();
    let plain = start === 0 ? plainState(decider, state) : undefined;
    let selected: ResourceTimeline['selected'] | undefined;
    for (let i = 0; i < history.length; i++) {
      const event = history[i];
      state = decider.evolve(state, event as DomainEvent);
      const inPage = i >= start && i < end;
      if (inPage || event.revision === selectedRevision || i === start - 1) {
        const next = plainState(decider, state);
        if (inPage) {
          const entry = await revealedEntry(this.vault, toHistoryEntry(event));
          const diff = (await this.vault.reveal(diffStates(plain, next))) as FieldChange[];
          revisions.push({ ...entry, diff });
        }
        if (event.revision === selectedRevision) {
          selected = {
            revision: event.revision,
            recorded_at: event.metadata.recordedAt,
            state: await this.vault.reveal(next),
          };
        }
        plain = next;
      }
      if (i >= end && selected) break;
    }
    if (!selected) throw validationError(TIMELINE_REVISION);
    return {
      kind: resource.kind,
      id: resource.id,
      stream: streamId,
      workspace_id: history[0].metadata.workspaceId ?? null,
      last_revision: last,
      revisions,
      count: revisions.length,
      cursor: end > 0 && end < history.length ? encodeCursor(history[end - 1].revision) : null,
      selected,
    };
  }
}
