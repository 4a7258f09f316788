import { NOT_RECURRING } from '@app/domain/jobs/job.spec-helper';
import {
  Actor,
  CreatedBy,
  DomainError,
  DomainErrorKind,
  JobCreated,
  MemberAdded,
  MemberRole,
  ProjectCreated,
  WorkspaceCreated,
} from '@app/domain';
import { Clock } from '../ports/clock.port';
import { EventStore, RecordedEvent } from '../ports/event-store.port';
import { IdGenerator } from '../ports/id-generator.port';
import { timeOrderedIds } from './time-ordered-ids';
import { ReadModelStore } from '../ports/read-model.port';
import { SubjectKeyStore } from '../ports/subject-key-store.port';
import { PersonalDataVault } from '../privacy/personal-data-vault';
import { AnyDomainEvent, SpecHistory } from '../projections/projector.spec-helper';
import { CommandContext } from './command-context';
import { useEmbeddedStores } from './embedded-stores.spec-helper';
import { EventSourcedRepository } from './event-sourced-repository';

/** The time of every command of a handler spec: 2026-11-01T00:00:00Z. */
export const NOW = Date.UTC(2026, 10, 1);

/** An event as a handler spec expects it appended: its stream, type and data. */
export interface Appended {
  streamId: string;
  type: string;
  data: unknown;
}

/**
 * Given events -> a handler runs -> the events it appended, on the embedded adapters of
 * `useEmbeddedStores` (handlers that look at read models see the given history there, and writes
 * wait for their read models as in the service), with the clock at NOW. Ids are `prefix_1`, `prefix_2`, …
 * in the order a spec asks for them; an Idempotency-Key derives them as the service does.
 *
 * Call it in a `describe`: it opens fresh stores before each test and removes them after.
 */
export function handlerSpec() {
  const stores = useEmbeddedStores('wos-handler-', NOW);
  let counter = 0;
  let history: SpecHistory;
  const ids: IdGenerator = { next: (prefix) => `${prefix}_${++counter}`, derive: timeOrderedIds.derive };

  beforeEach(() => {
    counter = 0;
    history = new SpecHistory();
  });

  /** Everything appended after `after`, as a spec expects it. */
  async function appendedAfter(after: number): Promise<RecordedEvent[]> {
    return stores.events.readAll({ after, maxCount: 10_000 });
  }

  return {
    get clock(): Clock {
      return stores.clock;
    },
    ids,
    get repository(): EventSourcedRepository {
      return stores.repository;
    },
    get read(): ReadModelStore {
      return stores.read;
    },
    get events(): EventStore {
      return stores.events;
    },
    /** The subject keys, and the vault that seals personal data with them. */
    get keys(): SubjectKeyStore {
      return stores.keys;
    },
    get vault(): PersonalDataVault {
      return stores.vault;
    },
    /** A request of an API key of `workspaceId` (the operator's when `actor` says so). */
    context(workspaceId: string | null, extra: Partial<CommandContext> & { actor?: Actor } = {}): CommandContext {
      return {
        actor: { type: 'api_key', id: 'key_spec', name: 'Spec bot' },
        workspaceId,
        requestId: 'req_spec',
        causationId: 'req_spec',
        ...extra,
      };
    },
    /** Appends a prior history to one stream, as an earlier command would have, and waits for its read models. */
    async given(streamId: string, ...prior: AnyDomainEvent[]): Promise<void> {
      await stores.events.appendToStream(
        streamId,
        prior.map((event) => {
          const { id, type, schemaVersion, data, metadata } = history.record(streamId, event);
          return { id, type, schemaVersion, data, metadata };
        }),
        { expectedRevision: 'any' },
      );
      await stores.settle();
    },
    /** Runs the handler; answers its result and the events it appended, in store order. */
    async when<T>(run: () => Promise<T>): Promise<{ result: T; events: Appended[]; recorded: RecordedEvent[] }> {
      const head = await stores.events.headPosition();
      const result = await run();
      const recorded = await appendedAfter(head);
      return {
        result,
        events: recorded.map(({ streamId, type, data }) => ({ streamId, type, data })),
        recorded,
      };
    },
    /** Runs the handler and expects it refused with this domain error, having appended nothing. */
    async whenRefused(run: () => Promise<unknown>, kind: DomainErrorKind, message: string): Promise<void> {
      const head = await stores.events.headPosition();
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      expect({ kind: (error as DomainError).kind, message: (error as DomainError).message }).toEqual({ kind, message });
      expect(await appendedAfter(head)).toEqual([]);
    },
  };
}

/** Prior histories: the events earlier commands recorded. */
export const given = {
  workspaceCreated: (id: string, projectLimit: number | null = null): WorkspaceCreated => ({
    type: 'workspace.created',
    data: { id, name: 'Acme', plan: 'pro', project_limit: projectLimit, created: NOW - 1000 },
  }),
  projectCreated: (id: string, workspaceId: string): ProjectCreated => ({
    type: 'project.created',
    data: {
      id,
      workspace_id: workspaceId,
      name: 'Dam inspection',
      description: 'Spillway',
      status: 'planned',
      other_status_reason: null,
      start_date: '2026-12-01',
      end_date: null,
      external_id: null,
      created_by: SPEC_CREATED_BY,
      created: NOW - 1000,
    },
  }),
  jobCreated: (id: string, workspaceId: string, projectId: string): JobCreated => ({
    type: 'job.created',
    data: {
      id,
      workspace_id: workspaceId,
      project_id: projectId,
      name: 'Facade scan',
      description: null,
      type: 'drone_inspection',
      status: 'not_started',
      priority: 'medium',
      job_pattern: 'one_time',
      start_date: '2026-12-01',
      end_date: null,
      latitude: null,
      longitude: null,
      inspection_notes: null,
      capture_types: null,
      external_id: null,
      ...NOT_RECURRING,
      other_status_reason: null,
      created: NOW - 1000,
    },
  }),
  memberAdded: (workspaceId: string, memberId: string, role: MemberRole = 'pilot'): MemberAdded => ({
    type: 'workspace.member_added',
    data: {
      workspace_id: workspaceId,
      member_id: memberId,
      role,
      status: 'active',
      title: null,
      email_hash: `hash-${memberId}`,
      profile_sealed: 'sealed',
      created: NOW - 1000,
    },
  }),
};

/** `created_by` of what the spec API key creates (createdByOf its actor). */
export const SPEC_CREATED_BY: CreatedBy = {
  id: 'key_spec',
  email: null,
  first_name: 'Spec bot',
  last_name: null,
  profile_picture: null,
};
