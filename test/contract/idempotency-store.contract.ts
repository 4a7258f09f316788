import { randomUUID } from 'node:crypto';
import { IdempotencyClaim, IdempotencyStore, StoredResponse } from '@app/application/ports';
import { adapterUnderTest, OpenAdapter } from './adapter-under-test';

/**
 * The behaviour every IdempotencyStore adapter must show. Run by
 * sqlite-idempotency-store.contract.spec.ts (always) and mongodb-idempotency-store.contract.spec.ts
 * (when MONGODB_URL is set). Scopes are random so suites can share a database; time is passed in.
 */
export function idempotencyStoreContract(name: string, open: OpenAdapter<IdempotencyStore>) {
  describe(`IdempotencyStore contract: ${name}`, () => {
    const store = adapterUnderTest(open);

    const NOW = 1_700_000_000_000;
    const DAY = 24 * 3600_000;
    const scope = () => `key_${randomUUID()}`;
    const claim = (overrides: Partial<IdempotencyClaim> & Pick<IdempotencyClaim, 'scope'>): IdempotencyClaim => ({
      key: 'k-1',
      fingerprint: 'fp-a',
      owner: randomUUID(),
      now: NOW,
      lockedUntil: NOW + 60_000,
      expiresAt: NOW + DAY,
      ...overrides,
    });
    const created: StoredResponse = {
      status: 201,
      headers: { 'content-type': 'application/json; charset=utf-8', etag: '"0"' },
      body: '{"id":"prj_1"}',
    };

    it('claims a new key once; later claims see it in progress, then completed with the response', async () => {
      const s = scope();
      const first = claim({ scope: s });
      expect(await store.claim(first)).toEqual({ outcome: 'claimed' });
      expect(await store.claim(claim({ scope: s, fingerprint: 'fp-b' }))).toEqual({
        outcome: 'in_progress',
        fingerprint: 'fp-a',
      });
      expect(await store.complete(s, 'k-1', first.owner, created)).toBe(true);
      expect(await store.claim(claim({ scope: s, now: NOW + 1_000 }))).toEqual({
        outcome: 'completed',
        fingerprint: 'fp-a',
        response: created,
      });
    });

    it('keeps scopes and keys apart', async () => {
      const a = scope();
      const b = scope();
      expect((await store.claim(claim({ scope: a }))).outcome).toBe('claimed');
      expect((await store.claim(claim({ scope: b }))).outcome).toBe('claimed');
      expect((await store.claim(claim({ scope: a, key: 'k-2' }))).outcome).toBe('claimed');
      expect((await store.claim(claim({ scope: a }))).outcome).toBe('in_progress');
    });

    it('keeps keys with any characters apart (no ambiguous joins)', async () => {
      const s = scope();
      expect((await store.claim(claim({ scope: `${s}:x`, key: 'y' }))).outcome).toBe('claimed');
      expect((await store.claim(claim({ scope: s, key: 'x:y' }))).outcome).toBe('claimed');
      expect((await store.claim(claim({ scope: s, key: '"\\\u0000✓' }))).outcome).toBe('claimed');
    });

    it('gives a key to exactly one of many concurrent claims', async () => {
      const s = scope();
      const results = await Promise.all(Array.from({ length: 20 }, () => store.claim(claim({ scope: s }))));
      expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
      expect(results.filter((r) => r.outcome === 'in_progress')).toHaveLength(19);
    });

    it('lets only the owner complete or release, and frees a released key', async () => {
      const s = scope();
      const first = claim({ scope: s });
      await store.claim(first);
      expect(await store.complete(s, 'k-1', 'someone-else', created)).toBe(false);
      await store.release(s, 'k-1', 'someone-else');
      expect((await store.claim(claim({ scope: s }))).outcome).toBe('in_progress');
      await store.release(s, 'k-1', first.owner);
      const second = claim({ scope: s, fingerprint: 'fp-b' });
      expect(await store.claim(second)).toEqual({ outcome: 'claimed' });
      expect(await store.complete(s, 'k-1', second.owner, created)).toBe(true);
      // A completed record is not released by its former owner.
      await store.release(s, 'k-1', second.owner);
      expect((await store.claim(claim({ scope: s }))).outcome).toBe('completed');
    });

    it('lets a new request take over a claim whose lock ran out; the old owner can no longer complete', async () => {
      const s = scope();
      const crashed = claim({ scope: s, lockedUntil: NOW + 1_000 });
      await store.claim(crashed);
      expect((await store.claim(claim({ scope: s, now: NOW + 999 }))).outcome).toBe('in_progress');
      const takeover = claim({ scope: s, now: NOW + 1_000, lockedUntil: NOW + 61_000, fingerprint: 'fp-b' });
      expect(await store.claim(takeover)).toEqual({ outcome: 'claimed' });
      expect(await store.complete(s, 'k-1', crashed.owner, created)).toBe(false);
      expect(await store.complete(s, 'k-1', takeover.owner, created)).toBe(true);
      expect(await store.claim(claim({ scope: s, now: NOW + 2_000 }))).toMatchObject({
        outcome: 'completed',
        fingerprint: 'fp-b',
      });
    });

    it('treats an expired record as absent and purges expired records only', async () => {
      const s = scope();
      const old = claim({ scope: s, key: 'old', expiresAt: NOW + 1_000 });
      await store.claim(old);
      await store.complete(s, 'old', old.owner, created);
      const young = claim({ scope: s, key: 'young', expiresAt: NOW + DAY });
      await store.claim(young);
      await store.complete(s, 'young', young.owner, created);

      expect((await store.claim(claim({ scope: s, key: 'old', now: NOW + 999 }))).outcome).toBe('completed');
      expect(await store.purgeExpired(NOW + 1_000)).toBeGreaterThanOrEqual(1);
      expect((await store.claim(claim({ scope: s, key: 'young', now: NOW + 1_000 }))).outcome).toBe('completed');
      const again = claim({ scope: s, key: 'old', now: NOW + 1_000, expiresAt: NOW + 1_000 + DAY });
      expect(await store.claim(again)).toEqual({ outcome: 'claimed' });
      // Expired without a purge: a claim replaces it all the same.
      const stale = claim({ scope: s, key: 'young', now: NOW + DAY, expiresAt: NOW + 2 * DAY });
      expect(await store.claim(stale)).toEqual({ outcome: 'claimed' });
    });

    it('stores bodies and headers byte for byte', async () => {
      const s = scope();
      const c = claim({ scope: s });
      await store.claim(c);
      const response: StoredResponse = {
        status: 200,
        headers: {},
        body: `{"message":"ünïcödé ✓ \\u0000 ${'x'.repeat(50_000)}"}`,
      };
      await store.complete(s, 'k-1', c.owner, response);
      expect(await store.claim(claim({ scope: s }))).toEqual({ outcome: 'completed', fingerprint: 'fp-a', response });
    });
  });
}
