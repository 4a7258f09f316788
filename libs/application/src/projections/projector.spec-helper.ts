import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Actor,
  eventSchemas,
  JobEvent,
  JobTypeEvent,
  OPERATOR,
  ProjectEvent,
  ProjectJobsEvent,
  WebhookEvent,
  WorkspaceEvent,
} from '@app/domain';
import { SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { EventMetadata, RecordedEvent } from '../ports/event-store.port';
import { ReadModelStore, StoredDocument } from '../ports/read-model.port';
import { eventFilter, Projector } from './projector';

/** Every event the service records, so a history written in a spec is type-checked against its schema. */
export type AnyDomainEvent = WorkspaceEvent | ProjectEvent | ProjectJobsEvent | JobEvent | JobTypeEvent | WebhookEvent;

/** The clock of a spec history: event n is recorded at T0 + n ms. */
export const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

/**
 * A history as the event store records it: positions dense from 1 across all streams, revisions
 * from 0 within each stream, an id, the current schema version and metadata per event. Events are
 * written as the domain types them (checked by the compiler), with the stream they belong to.
 */
export class SpecHistory {
  private position = 0;
  private readonly revisions = new Map<string, number>();

  /**
   * The next event of `streamId`. Its metadata's workspace is the event's own (`workspace_id`, or
   * the workspace stream's id) unless given; recorded by the operator at T0 + position.
   */
  record(streamId: string, event: AnyDomainEvent, metadata: Partial<EventMetadata> = {}): RecordedEvent {
    const position = ++this.position;
    const revision = (this.revisions.get(streamId) ?? -1) + 1;
    this.revisions.set(streamId, revision);
    const data = event.data as { workspace_id?: string; id?: string };
    const workspaceId = data.workspace_id ?? (streamId.startsWith('workspace-') ? (data.id ?? null) : null);
    return {
      id: `evt_${position}`,
      type: event.type,
      schemaVersion: eventSchemas.currentVersion(event.type),
      data: event.data,
      streamId,
      revision,
      position,
      metadata: {
        workspaceId,
        actor: OPERATOR as Actor,
        requestId: `req_${position}`,
        correlationId: `req_${position}`,
        causationId: `req_${position}`,
        recordedAt: T0 + position,
        ...metadata,
      },
    };
  }
}

/**
 * Given events -> expected documents, for one projector on the real embedded read-model store
 * (SQLite in a temporary directory). Events are written with `record`, on a history that starts
 * afresh for every test. Events are offered as the projection engine offers them:
 * only the types the projector `handles`, each event's writes stamped with its position and
 * applied with the projection's checkpoint in one `apply`. Delivering an event twice (`given`
 * with an event already given) is what a redelivery after a crash does: the engine replays from
 * its last checkpoint, so a projector must leave the same documents.
 *
 * Call it in a `describe`: it opens a fresh store before each test and removes it after.
 */
export function projectorSpec(projector: Projector) {
  let dir: string;
  let store: SqliteReadModelStore;
  let history: SpecHistory;
  const wants = eventFilter(projector);

  beforeEach(async () => {
    history = new SpecHistory();
    dir = mkdtempSync(join(tmpdir(), `wos-projector-${projector.name}-`));
    store = new SqliteReadModelStore(join(dir, 'read-models.db'));
    await store.init(projector.collections);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every document of every collection of the projector, in id order. */
  async function documents(): Promise<Record<string, StoredDocument[]>> {
    const out: Record<string, StoredDocument[]> = {};
    for (const { name } of projector.collections) {
      out[name] = [];
      for await (const doc of store.scan<Record<string, unknown>>(name)) out[name].push(doc);
    }
    return out;
  }

  /** The next event of the test's history (`SpecHistory.record`). */
  function record(streamId: string, event: AnyDomainEvent, metadata: Partial<EventMetadata> = {}): RecordedEvent {
    return history.record(streamId, event, metadata);
  }

  /** Applies the events in the order given, one `apply` per event as a live projection does. */
  async function given(...events: RecordedEvent[]): Promise<void> {
    for (const event of events) {
      const ops = wants(event.type) ? projector.project(event) : [];
      for (const op of ops) op.at = event.position;
      await store.apply(ops, { [projector.name]: event.position });
    }
  }

  return {
    /** The read-model store, through its port (for queries a spec makes, e.g. by workspace). */
    get store(): ReadModelStore {
      return store;
    },
    record,
    given,
    documents,
    /** The ids of a collection's documents in one workspace, in list order. */
    async ids(collection: string, workspaceId: string): Promise<string[]> {
      return (await store.find(collection, { workspaceId, limit: 100 })).map((doc) => doc.id);
    },
    /**
     * Gives `events`, then each redelivery in turn (what a replay from an older checkpoint
     * offers again), and expects the documents the events left the first time. Answers those.
     */
    async expectRedeliveriesChangeNothing(
      events: RecordedEvent[],
      ...redeliveries: RecordedEvent[][]
    ): Promise<Record<string, StoredDocument[]>> {
      await given(...events);
      const once = await documents();
      for (const redelivery of redeliveries) await given(...redelivery);
      expect(await documents()).toEqual(once);
      return once;
    },
    /**
     * The projector's collections hold exactly these documents (id order); a collection left out
     * must be empty.
     */
    async expectDocuments(expected: Record<string, StoredDocument[]>): Promise<void> {
      const unknown = Object.keys(expected).filter((name) => !projector.collections.some((c) => c.name === name));
      if (unknown.length > 0) throw new Error(`${projector.name} has no collection ${unknown.join(', ')}`);
      const empty = Object.fromEntries(projector.collections.map((c) => [c.name, [] as StoredDocument[]]));
      expect(await documents()).toEqual({ ...empty, ...expected });
    },
  };
}
