import { Collection, MongoClient, MongoServerError } from 'mongodb';
import { Snapshot, SnapshotStore } from '@app/application/ports';

interface SnapshotRow {
  _id: string;
  revision: number;
  event_id: string;
  version: number;
  state: string;
}

/**
 * Aggregate snapshots in MongoDB (collection `snapshots`, beside the read models). The state is
 * kept as a JSON string: aggregate states may hold keys MongoDB does not accept in documents
 * (dots, a leading `$`), and nothing queries inside them.
 */
export class MongoSnapshotStore implements SnapshotStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly snapshots: Collection<SnapshotRow>,
  ) {}

  static async connect(url: string, dbName?: string): Promise<MongoSnapshotStore> {
    const client = new MongoClient(url);
    await client.connect();
    return new MongoSnapshotStore(client, client.db(dbName).collection<SnapshotRow>('snapshots'));
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
    await this.client.close();
  }
}
