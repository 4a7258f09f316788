import Database from './sqlite-driver';
import { openSharedFile } from './sqlite-open';
import { Snapshot, SnapshotStore } from '@app/application/ports';

type Row = [revision: number, eventId: string, version: number, state: string];

/**
 * Aggregate snapshots in their own SQLite file (DATA_DIR/snapshots.db). A cache: written without
 * waiting for the disk (synchronous=NORMAL), safe to delete while the service is stopped. Several
 * processes share it; the newest snapshot of a stream wins whatever order they write in.
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly db: Database.Database;
  private readonly select: Database.Statement<[string], Row>;
  private readonly upsert: Database.Statement<[string, number, string, number, string]>;

  constructor(file: string) {
    this.db = openSharedFile(file);
    this.db.exec(`CREATE TABLE IF NOT EXISTS snapshots (
      stream_id TEXT PRIMARY KEY, revision INTEGER NOT NULL, event_id TEXT NOT NULL, version INTEGER NOT NULL, state TEXT NOT NULL
    )`);
    this.select = this.db
      .prepare<[string], Row>('SELECT revision, event_id, version, state FROM snapshots WHERE stream_id = ?')
      .raw();
    this.upsert = this.db.prepare(
      `INSERT INTO snapshots (stream_id, revision, event_id, version, state) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision, event_id = excluded.event_id,
         version = excluded.version, state = excluded.state
       WHERE excluded.revision > snapshots.revision OR excluded.version <> snapshots.version`,
    );
  }

  async get(streamId: string): Promise<Snapshot | null> {
    const row = this.select.get(streamId);
    if (!row) return null;
    return { streamId, revision: row[0], eventId: row[1], version: row[2], state: JSON.parse(row[3]) };
  }

  async put(snapshot: Snapshot): Promise<void> {
    this.upsert.run(
      snapshot.streamId,
      snapshot.revision,
      snapshot.eventId,
      snapshot.version,
      JSON.stringify(snapshot.state),
    );
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
