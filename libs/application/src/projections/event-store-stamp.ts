import { EventStore, EventStoreIdentity, START } from '../ports/event-store.port';
import { CollectionSpec, ReadModelStore, WriteOp } from '../ports/read-model.port';

/**
 * The read models' record of the event store they were projected from: one document beside the
 * projections' collections. Their checkpoints (and dead letters) are positions of that store, and
 * a position means nothing in another: SQLite's count events, EventStoreDB's are offsets in its
 * log, which it refuses to read from unless a record starts there. Projections started on another
 * store would subscribe from those numbers and fail, or skip its events, on every restart.
 */
export const STAMP_COLLECTION: CollectionSpec = { name: 'projected_from' };
const STAMP_ID = 'event_store';

/** The stamped store, or null for read models no projector has stamped. */
export async function readModelsSource(read: ReadModelStore): Promise<EventStoreIdentity | null> {
  const stamp = await read.get<EventStoreIdentity>(STAMP_COLLECTION.name, STAMP_ID);
  return stamp ? { kind: stamp.doc.kind, id: stamp.doc.id } : null;
}

/** The write that stamps the read models as projected from `store`. */
export function stampOf(store: EventStoreIdentity): WriteOp {
  return {
    op: 'put',
    collection: STAMP_COLLECTION.name,
    id: STAMP_ID,
    workspaceId: null,
    seq: START,
    doc: { kind: store.kind, id: store.id },
  };
}

const named = (store: EventStoreIdentity) => `${store.kind} ${store.id}`;

/** Read models projected from one event store, opened with another. */
export class EventStoreMismatchError extends Error {
  constructor(
    readonly projectedFrom: EventStoreIdentity,
    readonly configured: EventStoreIdentity,
  ) {
    super(
      `the read models were projected from event store ${named(projectedFrom)}, but this process's event store ` +
        `(EVENT_STORE) is ${named(configured)}: their checkpoints are positions in the other store. ` +
        'Point EVENT_STORE (and EVENTSTOREDB_URL) back at the store they came from, or rebuild them from this one: ' +
        'start the projector once on empty read models (move DATA_DIR/read-models.db aside, or give MONGODB_URL ' +
        'a database of its own) and every projection replays this store from its beginning; the ledger was built ' +
        'from the same store, so move DATA_DIR/ledger.db aside too (on MongoDB, its ledger_* collections go with the database) ' +
        '(docs/operations.md, "Changing the event store")',
    );
    this.name = 'EventStoreMismatchError';
  }
}

/**
 * Checks, before projections start or a replica serves, that the read models belong to `events`.
 * Read models with a stamp of another store are refused (EventStoreMismatchError), unless no
 * projection has applied anything yet. The projector (`stamp`) stamps read models that have no
 * stamp: fresh ones, and those of a release that kept none, taken to be of the store they run on.
 */
export async function checkReadModelsSource(
  events: EventStore,
  read: ReadModelStore,
  options: { stamp: boolean },
): Promise<void> {
  await read.init([STAMP_COLLECTION]);
  const [configured, stamped] = await Promise.all([events.identity(), readModelsSource(read)]);
  if (stamped && stamped.kind === configured.kind && stamped.id === configured.id) return;
  if (stamped) {
    const checkpoints = await read.getCheckpoints();
    if (Object.values(checkpoints).some((position) => position > START)) {
      throw new EventStoreMismatchError(stamped, configured);
    }
  }
  if (options.stamp) await read.apply([stampOf(configured)], {});
}
