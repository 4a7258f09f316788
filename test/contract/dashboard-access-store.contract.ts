import { randomUUID } from 'node:crypto';
import { DashboardAccessStore, DashboardSessionRecord } from '@app/application/ports';
import { adapterUnderTest, OpenAdapter } from './adapter-under-test';

const NOW = 1_800_000_000_000;
const IDLE_MS = 30 * 60_000;

/** The behaviour every DashboardAccessStore adapter must show (sign-in links and sessions). */
export function dashboardAccessStoreContract(name: string, open: OpenAdapter<DashboardAccessStore>) {
  describe(`DashboardAccessStore contract: ${name}`, () => {
    const store = adapterUnderTest(open);
    const hash = () => randomUUID().replace(/-/g, '');
    const session = (over: Partial<DashboardSessionRecord> = {}): DashboardSessionRecord => ({
      idHash: hash(),
      workspaceId: 'ws_1',
      memberId: 'usr_1',
      createdAt: NOW,
      lastSeenAt: NOW,
      expiresAt: NOW + 12 * 3600_000,
      ...over,
    });

    it('gives a link back once, then never again', async () => {
      const link = { tokenHash: hash(), workspaceId: 'ws_1', memberId: 'usr_1', expiresAt: NOW + 60_000 };
      await store.saveLink(link);

      expect(await store.consumeLink(link.tokenHash, NOW)).toEqual(link);
      expect(await store.consumeLink(link.tokenHash, NOW)).toBeNull();
      expect(await store.consumeLink(hash(), NOW)).toBeNull();
    });

    it('gives a link to one of many concurrent consumers', async () => {
      const link = { tokenHash: hash(), workspaceId: 'ws_1', memberId: 'usr_1', expiresAt: NOW + 60_000 };
      await store.saveLink(link);

      const answers = await Promise.all(Array.from({ length: 8 }, () => store.consumeLink(link.tokenHash, NOW)));
      expect(answers.filter((a) => a !== null)).toHaveLength(1);
    });

    it('refuses an expired link, and it stays refused', async () => {
      const link = { tokenHash: hash(), workspaceId: 'ws_1', memberId: 'usr_1', expiresAt: NOW };
      await store.saveLink(link);

      expect(await store.consumeLink(link.tokenHash, NOW)).toBeNull();
      expect(await store.consumeLink(link.tokenHash, NOW - 1)).toBeNull();
    });

    it('finds a live session, and none past its absolute end or its idle timeout', async () => {
      const live = session();
      await store.createSession(live);

      expect(await store.findSession(live.idHash, NOW + 1, IDLE_MS)).toEqual(live);
      expect(await store.findSession(live.idHash, NOW + IDLE_MS, IDLE_MS)).toBeNull();
      expect(await store.findSession(hash(), NOW, IDLE_MS)).toBeNull();

      const ending = session({ expiresAt: NOW + 1000 });
      await store.createSession(ending);
      expect(await store.findSession(ending.idHash, NOW + 1000, IDLE_MS)).toBeNull();
    });

    it('activity moves the idle timeout forward, never back', async () => {
      const s = session();
      await store.createSession(s);

      await store.touchSession(s.idHash, NOW + IDLE_MS - 1);
      await store.touchSession(s.idHash, NOW + 5);
      const found = await store.findSession(s.idHash, NOW + IDLE_MS + 10, IDLE_MS);
      expect(found?.lastSeenAt).toBe(NOW + IDLE_MS - 1);
    });

    it('a deleted session is gone', async () => {
      const s = session();
      await store.createSession(s);

      await store.deleteSession(s.idHash);
      expect(await store.findSession(s.idHash, NOW, IDLE_MS)).toBeNull();
      await store.deleteSession(s.idHash);
    });

    it('purges expired links and sessions, and keeps the live ones', async () => {
      const oldLink = { tokenHash: hash(), workspaceId: 'ws_1', memberId: 'usr_1', expiresAt: NOW - 1 };
      const liveLink = { tokenHash: hash(), workspaceId: 'ws_1', memberId: 'usr_1', expiresAt: NOW + 60_000 };
      const idle = session({ lastSeenAt: NOW - IDLE_MS });
      const ended = session({ expiresAt: NOW });
      const live = session();
      for (const link of [oldLink, liveLink]) await store.saveLink(link);
      for (const s of [idle, ended, live]) await store.createSession(s);

      expect(await store.purgeExpired(NOW, IDLE_MS)).toBe(3);
      expect(await store.consumeLink(liveLink.tokenHash, NOW)).toEqual(liveLink);
      expect(await store.findSession(live.idHash, NOW, IDLE_MS)).toEqual(live);
    });
  });
}
