import { Collection, MongoServerError } from 'mongodb';
import { Snapshot, SnapshotStore } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';

interface SnapshotRow {
  _id: string;
  revision: number;
  event_id: string;
  version: number;
  state: string;
}

/**
 * Aggregate snapshots in MongoDB (collection `snapshots` of the connection's database, beside the
 * read models). The state is
 * kept as a JSON string: aggregate states may hold keys MongoDB does not accept in documents
 * (dots, a leading `$`), and nothing queries inside them.
 */
export class MongoSnapshotStore implements SnapshotStore {
  private readonly snapshots: Collection<SnapshotRow>;

  /** The store closes the connection (its handle) with itself. */
  constructor(private readonly connection: MongoConnection) {
    this.snapshots = connection.db().collection<SnapshotRow>('snapshots');
  }

  static async connect(connection: MongoConnection): Promise<MongoSnapshotStore> {
    return new MongoSnapshotStore(connection);
  }

  async get(streamId: string): Promise<Snapshot | null> {
    const row = await this.snapshots.findOne({ _id: { $eq: streamId } });
    if (!row) return null;
    return {
      streamId,
      revision: row.revision,
      eventId: row.event_id,
      version: row.version,
      state: JSON.parse(row.state),
    };
  }

  async put(snapshot: Snapshot): Promise<void> {
    const row = {
      revision: snapshot.revision,
      event_id: snapshot.eventId,
      version: snapshot.version,
      state: JSON.stringify(snapshot.state),
    };
    try {
      // Replaces an older snapshot (or one of another shape); when the stored one is newer the
      // filter matches nothing, the upsert tries to insert the same _id, and that duplicate is ignored.
      await this.snapshots.updateOne(
        {
          _id: snapshot.streamId,
          $or: [{ revision: { $lt: snapshot.revision } }, { version: { $ne: snapshot.version } }],
        },
        { $set: row },
        { upsert: true },
      );
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
