import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '@app/domain';
import { SqliteDashboardAccessStore } from '@app/infrastructure/sqlite';
import { ReadModelStore, StoredDocument } from '../ports/read-model.port';
import { MEMBERS, WORKSPACES } from '../workspaces/workspace.projector';
import { DashboardAccess, DEFAULT_DASHBOARD_SETTINGS, MEMBER_CANNOT_SIGN_IN } from './dashboard-access';

const MINUTE = 60_000;

/** The read models as far as the dashboard reads them: documents by collection and id. */
function readModels() {
  const docs = new Map<string, StoredDocument>();
  const put = (collection: string, id: string, workspaceId: string, doc: Record<string, unknown>) =>
    docs.set(`${collection}/${id}`, { id, workspaceId, seq: 1, doc } as StoredDocument);
  const store = {
    get: async (collection: string, id: string) => docs.get(`${collection}/${id}`) ?? null,
  } as unknown as ReadModelStore;
  put(WORKSPACES, 'ws_1', 'ws_1', { id: 'ws_1', name: 'Acme' });
  put(WORKSPACES, 'ws_2', 'ws_2', { id: 'ws_2', name: 'Other' });
  const member = (id: string, workspaceId: string, changes: object = {}) =>
    put(MEMBERS, id, workspaceId, { id, role: 'pilot', status: 'active', profile_sealed: 'sealed', ...changes });
  member('usr_1', 'ws_1');
  member('usr_invited', 'ws_1', { status: 'invited' });
  member('usr_erased', 'ws_1', { profile_sealed: null });
  member('usr_2', 'ws_2');
  return { store, member };
}

describe('DashboardAccess: links, sessions and their timeouts', () => {
  let dir: string;
  let sessions: SqliteDashboardAccessStore;
  let now: number;
  let read: ReturnType<typeof readModels>;
  let access: DashboardAccess;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dashboard-access-'));
    sessions = new SqliteDashboardAccessStore(join(dir, 'dashboard.db'));
    now = 1_800_000_000_000;
    read = readModels();
    access = new DashboardAccess(sessions, read.store, { now: () => now }, DEFAULT_DASHBOARD_SETTINGS);
  });

  afterEach(async () => {
    await sessions.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: DomainError) => ({ kind: error.kind, message: error.message }),
    );

  it('mints links for active members of the workspace only', async () => {
    const link = await access.mintLink('ws_1', 'usr_1');
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt).toBe(now + 15 * MINUTE);

    expect(await refusal(access.mintLink('ws_404', 'usr_1'))).toEqual({
      kind: 'not_found',
      message: 'Workspace not found',
    });
    expect(await refusal(access.mintLink('ws_1', 'usr_2'))).toEqual({ kind: 'not_found', message: 'User not found' });
    for (const member of ['usr_invited', 'usr_erased'])
      expect(await refusal(access.mintLink('ws_1', member))).toEqual({
        kind: 'conflict',
        message: MEMBER_CANNOT_SIGN_IN,
      });
  });

  it('signs in once per link, within its lifetime', async () => {
    const { token } = await access.mintLink('ws_1', 'usr_1');
    const signedIn = await access.signIn(token);
    expect(signedIn).toMatchObject({ workspaceId: 'ws_1', workspaceName: 'Acme', memberId: 'usr_1', role: 'pilot' });
    expect(await access.signIn(token)).toBeNull();

    const late = await access.mintLink('ws_1', 'usr_1');
    now += 15 * MINUTE;
    expect(await access.signIn(late.token)).toBeNull();
    expect(await access.signIn(undefined)).toBeNull();
    expect(await access.signIn('x')).toBeNull();
  });

  it('ends a session idle for 30 minutes, and every session once 12 hours have passed since sign-in', async () => {
    const idle = (await access.signIn((await access.mintLink('ws_1', 'usr_1')).token))!;
    const busy = (await access.signIn((await access.mintLink('ws_1', 'usr_1')).token))!;

    now += 29 * MINUTE;
    expect(await access.resume(busy.sessionId)).not.toBeNull();
    now += MINUTE;
    expect(await access.resume(idle.sessionId)).toBeNull();
    // Active every 28 minutes, the busy session lasts until its twelfth hour, not beyond.
    while (now + 28 * MINUTE < busy.session.createdAt + 12 * 3600_000) {
      now += 28 * MINUTE;
      expect(await access.resume(busy.sessionId)).not.toBeNull();
    }
    now = busy.session.createdAt + 12 * 3600_000;
    expect(await access.resume(busy.sessionId)).toBeNull();
  });

  it('records activity at most once a minute', async () => {
    const signedIn = (await access.signIn((await access.mintLink('ws_1', 'usr_1')).token))!;
    now += 30_000;
    expect((await access.resume(signedIn.sessionId))!.session.lastSeenAt).toBe(signedIn.session.lastSeenAt);
    now += 30_000;
    await access.resume(signedIn.sessionId);
    expect((await access.resume(signedIn.sessionId))!.session.lastSeenAt).toBe(now);
  });

  it('signs out a member who can no longer sign in, and on sign-out', async () => {
    const first = (await access.signIn((await access.mintLink('ws_1', 'usr_1')).token))!;
    const second = (await access.signIn((await access.mintLink('ws_1', 'usr_1')).token))!;
    await access.signOut(second.sessionId);
    expect(await access.resume(second.sessionId)).toBeNull();
    expect(await access.resume(first.sessionId)).not.toBeNull();

    read.member('usr_1', 'ws_1', { profile_sealed: null });
    expect(await access.resume(first.sessionId)).toBeNull();
    read.member('usr_1', 'ws_1');
    expect(await access.resume(first.sessionId)).toBeNull();
  });

  it("gives each session a CSRF token of its own, which reveals nothing of the session's id", async () => {
    const a = (await access.signIn((await access.mintLink('ws_1', 'usr_1')).token))!;
    const b = (await access.signIn((await access.mintLink('ws_1', 'usr_1')).token))!;
    const token = access.csrfToken(a.sessionId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(a.sessionId);
    expect(access.csrfTokenMatches(a.sessionId, token)).toBe(true);
    expect(access.csrfTokenMatches(b.sessionId, token)).toBe(false);
    for (const wrong of [undefined, '', token.slice(1), ['x'], `${token}x`])
      expect(access.csrfTokenMatches(a.sessionId, wrong)).toBe(false);
  });
});
