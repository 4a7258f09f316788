import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { conflict, notFound, USER_NOT_FOUND, WORKSPACE_NOT_FOUND } from '@app/domain';
import { CLOCK, Clock } from '../ports/clock.port';
import {
  DASHBOARD_ACCESS_STORE,
  DashboardAccessStore,
  DashboardSessionRecord,
} from '../ports/dashboard-access-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../ports/read-model.port';
import { CONSOLE_SESSION_SCOPE } from '../console/console-access';
import { MEMBERS, MemberDoc, WORKSPACES, WorkspaceDoc } from '../workspaces/workspace.projector';

export const DASHBOARD_SETTINGS = Symbol('DashboardSettings');

/** Lifetimes of the dashboard's links and sessions (docs/dashboard.md, Access). */
export interface DashboardSettings {
  /** A sign-in link works this long after it was minted (15 minutes by default). */
  linkTtlMs: number;
  /** A session ends after this long without a request (30 minutes). */
  idleTimeoutMs: number;
  /** A session ends this long after sign-in, whatever its activity (12 hours). */
  absoluteTimeoutMs: number;
}

export const DEFAULT_DASHBOARD_SETTINGS: DashboardSettings = {
  linkTtlMs: 15 * 60_000,
  idleTimeoutMs: 30 * 60_000,
  absoluteTimeoutMs: 12 * 3600_000,
};

/** A session records activity at most this often: the idle timeout is exact to within it. */
const TOUCH_EVERY_MS = 60_000;
/** How often expired links and sessions are removed from the store. */
const PURGE_EVERY_MS = 10 * 60_000;

/** Tokens and session ids: 32 random bytes, base64url (43 characters). */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

export const MEMBER_CANNOT_SIGN_IN = 'This member cannot sign in to the dashboard: only an active member can';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

/** Who is signed in, as of this request. */
export interface DashboardMember {
  workspaceId: string;
  workspaceName: string;
  memberId: string;
  role: string;
}

export interface SignedIn extends DashboardMember {
  /** The session id, for the cookie: the store keeps only its digest. */
  sessionId: string;
  session: DashboardSessionRecord;
}

/**
 * Sign-in links, sessions and their CSRF tokens (docs/dashboard.md). The operator mints a link for
 * a member; opening it and confirming consumes it (once, within its lifetime) and starts a session
 * in that member's workspace. Every request re-reads the member, so a member who is erased or no
 * longer active loses the dashboard at once. Links and session ids are 256-bit random secrets,
 * stored only as SHA-256 digests.
 */
@Injectable()
export class DashboardAccess implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Dashboard');
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(DASHBOARD_ACCESS_STORE) private readonly store: DashboardAccessStore,
    @Inject(READ_MODEL_STORE) private readonly read: ReadModelStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  onModuleInit() {
    this.timer = setInterval(() => {
      this.store
        .purgeExpired(this.clock.now(), this.settings.idleTimeoutMs)
        .catch((error: Error) => this.logger.warn(`Could not purge expired dashboard sessions: ${error.message}`));
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy() {
    clearInterval(this.timer);
    await this.store.close();
  }

  /** A one-time sign-in link's token for a member (404 for an unknown workspace or member, 409 for one who cannot sign in). */
  async mintLink(workspaceId: string, memberId: string): Promise<{ token: string; expiresAt: number }> {
    const workspace = await this.read.get<WorkspaceDoc>(WORKSPACES, workspaceId);
    if (!workspace) throw notFound(WORKSPACE_NOT_FOUND);
    const member = await this.read.get<MemberDoc>(MEMBERS, memberId);
    if (!member || member.workspaceId !== workspaceId) throw notFound(USER_NOT_FOUND);
    if (!mayUseDashboard(member.doc)) throw conflict(MEMBER_CANNOT_SIGN_IN);
    const token = newSecret();
    const expiresAt = this.clock.now() + this.settings.linkTtlMs;
    await this.store.saveLink({ tokenHash: sha256(token), workspaceId, memberId, expiresAt });
    return { token, expiresAt };
  }

  /** Consumes the link and starts a session; null when the link is unknown, used or expired, or its member cannot sign in. */
  async signIn(token: unknown): Promise<SignedIn | null> {
    if (typeof token !== 'string' || !SECRET.test(token)) return null;
    const now = this.clock.now();
    const link = await this.store.consumeLink(sha256(token), now);
    if (!link) return null;
    const member = await this.member(link.workspaceId, link.memberId);
    if (!member) return null;
    const sessionId = newSecret();
    const session: DashboardSessionRecord = {
      idHash: sha256(sessionId),
      workspaceId: link.workspaceId,
      memberId: link.memberId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + this.settings.absoluteTimeoutMs,
    };
    await this.store.createSession(session);
    return { ...member, sessionId, session };
  }

  /** The session's member as the read models have it; null when the session is unknown, expired or idle, or its member can no longer sign in. */
  async resume(sessionId: string | undefined): Promise<SignedIn | null> {
    if (!sessionId || !SECRET.test(sessionId)) return null;
    const now = this.clock.now();
    const session = await this.store.findSession(sha256(sessionId), now, this.settings.idleTimeoutMs);
    // The console's sessions share the store: one is no member's, and is left for the console.
    if (!session || session.workspaceId === CONSOLE_SESSION_SCOPE) return null;
    const member = await this.member(session.workspaceId, session.memberId);
    if (!member) {
      await this.store.deleteSession(session.idHash);
      return null;
    }
    if (now - session.lastSeenAt >= TOUCH_EVERY_MS) await this.store.touchSession(session.idHash, now);
    return { ...member, sessionId, session };
  }

  async signOut(sessionId: string | undefined): Promise<void> {
    if (sessionId && SECRET.test(sessionId)) await this.store.deleteSession(sha256(sessionId));
  }

  /**
   * The session's synchronizer token for its forms: an HMAC of a fixed label under the session id,
   * so nothing more is stored, and the token reveals nothing of the id.
   */
  csrfToken(sessionId: string): string {
    return createHmac('sha256', sessionId).update('dashboard-csrf').digest('base64url');
  }

  csrfTokenMatches(sessionId: string, presented: unknown): boolean {
    if (typeof presented !== 'string') return false;
    const expected = Buffer.from(this.csrfToken(sessionId));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async member(workspaceId: string, memberId: string): Promise<DashboardMember | null> {
    const [workspace, member] = await Promise.all([
      this.read.get<WorkspaceDoc>(WORKSPACES, workspaceId),
      this.read.get<MemberDoc>(MEMBERS, memberId),
    ]);
    if (!workspace || !member || member.workspaceId !== workspaceId || !mayUseDashboard(member.doc)) return null;
    return { workspaceId, workspaceName: workspace.doc.name, memberId, role: member.doc.role };
  }
}

/** Only an active member whose personal data was not erased uses the dashboard. */
function mayUseDashboard(member: MemberDoc): boolean {
  return member.status === 'active' && member.profile_sealed !== null;
}
