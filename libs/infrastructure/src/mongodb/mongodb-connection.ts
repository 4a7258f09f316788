import { Db, MongoClient } from 'mongodb';
import { supportsTransactions } from './transactions';

/**
 * The database every collection of the MongoDB adapters lives in when MONGODB_URL names none in
 * its path (`mongodb://host:27017/?replicaSet=rs0`). The driver's own fallback would be `test`.
 */
export const DEFAULT_MONGO_DATABASE = 'workspace_operations';

/**
 * The database named in a `mongodb://` / `mongodb+srv://` URL's path (`/<name>` after the hosts,
 * before the options), else DEFAULT_MONGO_DATABASE. The driver reads the same part of the URL,
 * but answers `test` for a URL without one, which cannot be told from a URL that says `/test`.
 */
export function mongoDatabaseOf(url: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]*)/.exec(url);
  const name = match?.[1] ? decodeURIComponent(match[1]) : '';
  return name.length > 0 ? name : DEFAULT_MONGO_DATABASE;
}

interface Shared {
  client: MongoClient;
  handles: number;
  transactions: Promise<boolean> | null;
}

/**
 * One MongoClient (one connection pool, one set of server monitors) and the database the adapters
 * use, shared by every MongoDB adapter of a process. Each adapter is given a handle of its own
 * (`share()`) and closes it with itself; the client closes when the last handle does, so whatever
 * the order in which the adapters are closed at shutdown, the client outlives all of them.
 */
export class MongoConnection {
  private closed = false;

  private constructor(
    private readonly shared: Shared,
    /** The database of the adapters' collections (see mongoDatabaseOf). */
    readonly databaseName: string,
  ) {}

  /**
   * Connects a new client. The database is `options.databaseName`, else the one in the URL's
   * path, else DEFAULT_MONGO_DATABASE.
   */
  static async open(url: string, options: { databaseName?: string } = {}): Promise<MongoConnection> {
    // ignoreUndefined: a field set to `undefined` is left out, as JSON.stringify does on SQLite.
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    return MongoConnection.over(client, options.databaseName ?? mongoDatabaseOf(url));
  }

  /** A connection over a client made elsewhere (it is closed with the last handle). */
  static over(client: MongoClient, databaseName: string): MongoConnection {
    return new MongoConnection({ client, handles: 1, transactions: null }, databaseName);
  }

  get client(): MongoClient {
    return this.shared.client;
  }

  /** Whether the client is still open: some handle of it has not been closed. */
  get isOpen(): boolean {
    return this.shared.handles > 0;
  }

  /** The adapters' database, or another one of the same deployment (the subject keys have their own). */
  db(name: string = this.databaseName): Db {
    return this.shared.client.db(name);
  }

  /** Whether the deployment runs multi-document transactions (asked once per client). */
  transactions(): Promise<boolean> {
    if (!this.shared.transactions) {
      const asked = supportsTransactions(this.db());
      this.shared.transactions = asked;
      asked.catch(() => {
        if (this.shared.transactions === asked) this.shared.transactions = null;
      });
    }
    return this.shared.transactions;
  }

  /** Another handle on the same client and database, for another adapter. */
  share(): MongoConnection {
    if (!this.isOpen) throw new Error('The MongoDB connection is closed');
    this.shared.handles += 1;
    return new MongoConnection(this.shared, this.databaseName);
  }

  /** Closes this handle (again: nothing); the client closes with the last one. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.shared.handles -= 1;
    if (this.shared.handles === 0) await this.shared.client.close();
  }
}
