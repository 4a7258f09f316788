import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../ports/clock.port';
import { DASHBOARD_ACCESS_STORE, DashboardAccessStore } from '../ports/dashboard-access-store.port';
import { OperatorRole } from '../ports/operator-credential-store.port';
import { OPERATOR_TOKEN_PREFIX, OperatorCredentials } from '../operators/operator-credentials';

export const CONSOLE_SETTINGS = Symbol('ConsoleSettings');

/** The console's secrets and lifetimes (docs/console.md, Access). */
export interface ConsoleSettings {
  /** The bootstrap ADMIN_TOKEN, which signs in as an operator. */
  adminToken: string;
  /** A session ends after this long without a request (15 minutes). */
  idleTimeoutMs: number;
  /** A session ends this long after sign-in, whatever its activity (8 hours). */
  absoluteTimeoutMs: number;
}

export const DEFAULT_CONSOLE_TIMEOUTS = { idleTimeoutMs: 15 * 60_000, absoluteTimeoutMs: 8 * 3600_000 };

/**
 * Console sessions live in the dashboard's session store under a workspace id no workspace has
 * (the empty string): the dashboard finds no member for them, and the console takes no other.
 */
export const CONSOLE_SESSION_SCOPE = '';
/** The holder recorded for a session signed in with ADMIN_TOKEN (no credential id). */
const ADMIN_TOKEN_HOLDER = 'admin_token';

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const TOUCH_EVERY_MS = 60_000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const sameDigest = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** Who is signed in to the console, as of this request. */
export interface ConsoleOperator {
  /** The operator credential's id; null for ADMIN_TOKEN. */
  credentialId: string | null;
  name: string;
  role: OperatorRole;
  sessionId: string;
}

/**
 * Sign-in to the operator console (docs/console.md): an operator credential or ADMIN_TOKEN typed
 * into a form starts a session; the session id is a 256-bit secret whose SHA-256 alone is stored.
 * Every request re-reads the credential, so a revoked one ends its sessions at once, and its role
 * is the credential's as it is now.
 */
@Injectable()
export class ConsoleAccess {
  constructor(
    @Inject(DASHBOARD_ACCESS_STORE) private readonly store: DashboardAccessStore,
    private readonly credentials: OperatorCredentials,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONSOLE_SETTINGS) readonly settings: ConsoleSettings,
  ) {}

  /** A new session for the holder of `token`; null when it is no valid operator token. */
  async signIn(token: unknown): Promise<ConsoleOperator | null> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) return null;
    const holder = await this.holderOf(token.trim());
    if (!holder) return null;
    const sessionId = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.store.createSession({
      idHash: sha256(sessionId),
      workspaceId: CONSOLE_SESSION_SCOPE,
      memberId: holder.credentialId ?? ADMIN_TOKEN_HOLDER,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + this.settings.absoluteTimeoutMs,
    });
    return { ...holder, sessionId };
  }

  /** The session's operator; null when the session is unknown, not the console's, ended, or its credential revoked. */
  async resume(sessionId: string | undefined): Promise<ConsoleOperator | null> {
    if (!sessionId || !SESSION_ID.test(sessionId)) return null;
    const now = this.clock.now();
    const session = await this.store.findSession(sha256(sessionId), now, this.settings.idleTimeoutMs);
    if (!session || session.workspaceId !== CONSOLE_SESSION_SCOPE) return null;
    const holder =
      session.memberId === ADMIN_TOKEN_HOLDER
        ? ADMIN
        : await this.credentials
            .identityOf(session.memberId)
            .then((identity) =>
              identity ? { credentialId: identity.id, name: identity.name, role: identity.role } : null,
            );
    if (!holder) {
      await this.store.deleteSession(session.idHash);
      return null;
    }
    if (now - session.lastSeenAt >= TOUCH_EVERY_MS) await this.store.touchSession(session.idHash, now);
    return { ...holder, sessionId };
  }

  async signOut(sessionId: string | undefined): Promise<void> {
    if (sessionId && SESSION_ID.test(sessionId)) await this.store.deleteSession(sha256(sessionId));
  }

  /** The session's synchronizer token for its forms (an HMAC under the session id, distinct from the dashboard's). */
  csrfToken(sessionId: string): string {
    return createHmac('sha256', sessionId).update('console-csrf').digest('base64url');
  }

  csrfTokenMatches(sessionId: string, presented: unknown): boolean {
    if (typeof presented !== 'string') return false;
    const expected = Buffer.from(this.csrfToken(sessionId));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async holderOf(token: string): Promise<Omit<ConsoleOperator, 'sessionId'> | null> {
    if (token.startsWith(OPERATOR_TOKEN_PREFIX)) {
      const identity = await this.credentials.authenticate(token);
      return identity ? { credentialId: identity.id, name: identity.name, role: identity.role } : null;
    }
    return sameDigest(token, this.settings.adminToken) ? ADMIN : null;
  }
}

const ADMIN = { credentialId: null, name: 'ADMIN_TOKEN', role: 'operator' } as const;
