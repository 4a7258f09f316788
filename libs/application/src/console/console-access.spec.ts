import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDashboardAccessStore, SqliteOperatorCredentialStore } from '@app/infrastructure/sqlite';
import { OperatorCredentials } from '../operators/operator-credentials';
import { timeOrderedIds } from '../shared/time-ordered-ids';
import { ConsoleAccess } from './console-access';

const IDLE = 15 * 60_000;
const ABSOLUTE = 8 * 3600_000;

describe('ConsoleAccess', () => {
  let dir: string;
  let sessions: SqliteDashboardAccessStore;
  let store: SqliteOperatorCredentialStore;
  let credentials: OperatorCredentials;
  let access: ConsoleAccess;
  const clock = { at: 1_000_000, now: () => clock.at };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-console-access-'));
    sessions = new SqliteDashboardAccessStore(join(dir, 'dashboard.db'));
    store = new SqliteOperatorCredentialStore(join(dir, 'operators.db'));
    credentials = new OperatorCredentials(store, clock, timeOrderedIds);
    access = new ConsoleAccess(sessions, credentials, clock, {
      adminToken: 'adm_console_spec',
      idleTimeoutMs: IDLE,
      absoluteTimeoutMs: ABSOLUTE,
    });
  });
  afterEach(async () => {
    await sessions.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in the admin token as an operator and a credential with its role; nothing else', async () => {
    const admin = await access.signIn('adm_console_spec');
    expect(admin).toMatchObject({ credentialId: null, role: 'operator' });
    const { id, token } = await credentials.create('Auditor', 'auditor');
    expect(await access.signIn(token)).toMatchObject({ credentialId: id, name: 'Auditor', role: 'auditor' });
    for (const wrong of ['adm_console_specx', '', `${token}x`, 42, undefined])
      expect(await access.signIn(wrong)).toBeNull();
  });

  it('ends a session after the idle timeout, and after the absolute one whatever the activity', async () => {
    const idle = (await access.signIn('adm_console_spec'))!;
    clock.at += IDLE - 1;
    expect(await access.resume(idle.sessionId)).not.toBeNull();
    clock.at += IDLE;
    expect(await access.resume(idle.sessionId)).toBeNull();

    const busy = (await access.signIn('adm_console_spec'))!;
    for (let spent = 0; spent < ABSOLUTE - IDLE; spent += IDLE / 2) {
      clock.at += IDLE / 2;
      expect(await access.resume(busy.sessionId)).not.toBeNull();
    }
    clock.at += IDLE;
    expect(await access.resume(busy.sessionId)).toBeNull();
  });

  it("ends a credential's sessions once it is revoked, and signs out", async () => {
    const { id, token } = await credentials.create('Ops', 'operator');
    const signedIn = (await access.signIn(token))!;
    expect(await access.resume(signedIn.sessionId)).toMatchObject({ credentialId: id });
    await credentials.revoke(id);
    expect(await access.resume(signedIn.sessionId)).toBeNull();

    const admin = (await access.signIn('adm_console_spec'))!;
    await access.signOut(admin.sessionId);
    expect(await access.resume(admin.sessionId)).toBeNull();
  });

  it('keeps its CSRF tokens apart from sessions other than its own', async () => {
    const a = (await access.signIn('adm_console_spec'))!;
    const b = (await access.signIn('adm_console_spec'))!;
    expect(access.csrfTokenMatches(a.sessionId, access.csrfToken(a.sessionId))).toBe(true);
    expect(access.csrfTokenMatches(a.sessionId, access.csrfToken(b.sessionId))).toBe(false);
    expect(access.csrfTokenMatches(a.sessionId, undefined)).toBe(false);
  });
});
