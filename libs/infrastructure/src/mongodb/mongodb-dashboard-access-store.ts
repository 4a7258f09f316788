import { Collection } from 'mongodb';
import { DashboardAccessStore, DashboardLinkRecord, DashboardSessionRecord } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';

interface LinkDoc {
  /** The token's digest. */
  _id: string;
  workspaceId: string;
  memberId: string;
  expiresAt: number;
  /** The expiry as a date, for the TTL index (MongoDB's own clean-up). */
  purgeAt: Date;
}

interface SessionDoc {
  /** The session id's digest. */
  _id: string;
  workspaceId: string;
  memberId: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  purgeAt: Date;
}

const LINKS = 'dashboard_links';
const SESSIONS = 'dashboard_sessions';

/**
 * Dashboard sign-in links and sessions in MongoDB, shared by every instance of the scaled
 * deployment. A link is consumed by one `findOneAndDelete` on its `_id`: a single-document
 * operation, atomic, so of concurrent consumptions one gets the document. TTL indexes drop expired
 * links and sessions past their absolute end in the background; idle sessions are refused by
 * `findSession` and removed by `purgeExpired`.
 */
export class MongoDashboardAccessStore implements DashboardAccessStore {
  private constructor(
    private readonly connection: MongoConnection,
    private readonly links: Collection<LinkDoc>,
    private readonly sessions: Collection<SessionDoc>,
  ) {}

  /** Creates the TTL indexes, in the connection's database; the store closes the connection (its handle) with itself. */
  static async connect(connection: MongoConnection): Promise<MongoDashboardAccessStore> {
    try {
      const links = connection.db().collection<LinkDoc>(LINKS);
      const sessions = connection.db().collection<SessionDoc>(SESSIONS);
      await links.createIndex({ purgeAt: 1 }, { name: 'purge_at_ttl', expireAfterSeconds: 0 });
      await sessions.createIndex({ purgeAt: 1 }, { name: 'purge_at_ttl', expireAfterSeconds: 0 });
      return new MongoDashboardAccessStore(connection, links, sessions);
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  async saveLink(link: DashboardLinkRecord): Promise<void> {
    await this.links.insertOne({
      _id: link.tokenHash,
      workspaceId: link.workspaceId,
      memberId: link.memberId,
      expiresAt: link.expiresAt,
      purgeAt: new Date(link.expiresAt),
    });
  }

  async consumeLink(tokenHash: string, now: number): Promise<DashboardLinkRecord | null> {
    const doc = await this.links.findOneAndDelete({ _id: { $eq: tokenHash } });
    if (!doc || doc.expiresAt <= now) return null;
    return { tokenHash: doc._id, workspaceId: doc.workspaceId, memberId: doc.memberId, expiresAt: doc.expiresAt };
  }

  async createSession(session: DashboardSessionRecord): Promise<void> {
    await this.sessions.insertOne({
      _id: session.idHash,
      workspaceId: session.workspaceId,
      memberId: session.memberId,
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      expiresAt: session.expiresAt,
      purgeAt: new Date(session.expiresAt),
    });
  }

  async findSession(idHash: string, now: number, idleMs: number): Promise<DashboardSessionRecord | null> {
    const doc = await this.sessions.findOne({ _id: { $eq: idHash } });
    if (!doc || doc.expiresAt <= now || doc.lastSeenAt + idleMs <= now) return null;
    return {
      idHash: doc._id,
      workspaceId: doc.workspaceId,
      memberId: doc.memberId,
      createdAt: doc.createdAt,
      lastSeenAt: doc.lastSeenAt,
      expiresAt: doc.expiresAt,
    };
  }

  async touchSession(idHash: string, lastSeenAt: number): Promise<void> {
    await this.sessions.updateOne({ _id: { $eq: idHash }, lastSeenAt: { $lt: lastSeenAt } }, { $set: { lastSeenAt } });
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.sessions.deleteOne({ _id: { $eq: idHash } });
  }

  async purgeExpired(now: number, idleMs: number): Promise<number> {
    const links = await this.links.deleteMany({ expiresAt: { $lte: now } });
    const sessions = await this.sessions.deleteMany({
      $or: [{ expiresAt: { $lte: now } }, { lastSeenAt: { $lte: now - idleMs } }],
    });
    return links.deletedCount + sessions.deletedCount;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
