import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from '@app/infrastructure/sqlite/sqlite-driver';
import { SqliteIdempotencyStore } from '@app/infrastructure/sqlite';
import { ResponseSealer } from '../../apps/api/src/limits/response-sealer';
import { ADMIN_TOKEN, TestApp, useProvisionedApp } from '../support/test-app';

/** Idempotent POST retries with Idempotency-Key (docs/limits.md). */
describe('Idempotency-Key on POST', () => {
  const { t, keys } = useProvisionedApp();
  const valid = { name: 'Dam inspection', description: 'Spillway', status: 'planned', start_date: '2026-12-01' };

  const post = (body: unknown, key: string, token = keys.fullKey, path = '/v1/projects') =>
    t.request('POST', path, { token, body, headers: { 'idempotency-key': key } });
  const count = async (token: string, app: TestApp = t) => {
    let total = 0;
    let cursor: string | null = null;
    do {
      const page: { body: { count: number; cursor: string | null } } = await app.request(
        'GET',
        `/v1/projects${cursor ? `?cursor=${cursor}` : ''}`,
        { token },
      );
      total += page.body.count;
      cursor = page.body.cursor;
    } while (cursor);
    return total;
  };

  it('replays the original response to a retry with the same key and body, without a second project', async () => {
    const ws = await t.provision({ name: 'Replay' });
    const key = randomUUID();
    const first = await post(valid, key, ws.fullKey);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body with its keys in another order is the same request.
    const retry = await post(
      { start_date: valid.start_date, status: valid.status, description: valid.description, name: valid.name },
      key,
      ws.fullKey,
    );
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await count(ws.fullKey)).toBe(1);
    // Without the key, the same body is a new project.
    expect((await t.request('POST', '/v1/projects', { token: ws.fullKey, body: valid })).body.id).not.toBe(
      first.body.id,
    );
  });

  it('creates one project for 20 concurrent duplicates; the others wait and get the same answer', async () => {
    const ws = await t.provision({ name: 'Burst' });
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => post(valid, key, ws.fullKey)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await count(ws.fullKey)).toBe(1);
  });

  it('refuses the same key with another body or path with 422 and explains why', async () => {
    const key = randomUUID();
    expect((await post(valid, key)).status).toBe(201);
    const otherBody = await post({ ...valid, name: 'Another' }, key);
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.message).toMatch(/already used for a different request/);
    const id = (await post(valid, key)).body.id;
    const otherPath = await post({ archived: true }, key, keys.fullKey, `/v1/projects/${id}/archive`);
    expect(otherPath.status).toBe(422);
  });

  it('scopes keys per API key: another key may use the same value for its own request', async () => {
    const ws = await t.provision({ name: 'Two keys' });
    const second = await t.admin('POST', `/workspaces/${ws.workspaceId}/api-keys`, {
      name: 'Second bot',
      scope: 'full_access',
    });
    const key = 'order-42';
    const a = await post(valid, key, ws.fullKey);
    const b = await post(valid, key, second.body.key);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(await count(ws.fullKey)).toBe(2);
  });

  it('stores only successes: after a 400 the key is free for the corrected request', async () => {
    const key = randomUUID();
    const invalid = await post({ ...valid, name: '' }, key);
    expect(invalid.status).toBe(400);
    const fixed = await post(valid, key);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    expect((await post(valid, key)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not store a refusal of the plan limit: after a slot frees, the retry creates the project', async () => {
    const ws = await t.provision({ name: 'Full', projectLimit: 1 });
    const existing = (await t.request('POST', '/v1/projects', { token: ws.fullKey, body: valid })).body.id;
    const key = randomUUID();
    expect((await post(valid, key, ws.fullKey)).status).toBe(429);
    await t.request('DELETE', `/v1/projects/${existing}`, { token: ws.fullKey });
    expect((await post(valid, key, ws.fullKey)).status).toBe(201);
  });

  it('replays a 200 of another POST route (archive) as well', async () => {
    const id = (await post(valid, randomUUID())).body.id;
    const key = randomUUID();
    const first = await post({ archived: true }, key, keys.fullKey, `/v1/projects/${id}/archive`);
    expect(first).toMatchObject({ status: 200, body: { message: 'Project archived successfully' } });
    const retry = await post({ archived: true }, key, keys.fullKey, `/v1/projects/${id}/archive`);
    expect(retry).toMatchObject({ status: 200, body: { message: 'Project archived successfully' } });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('refuses malformed keys with 400 and ignores the header on other methods', async () => {
    for (const bad of ['', 'x'.repeat(256), 'has space', 'ünicode']) {
      const res = await t.request('POST', '/v1/projects', {
        token: keys.fullKey,
        body: valid,
        headers: { 'idempotency-key': bad },
      });
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 400,
        message: 'Idempotency-Key must be 1 to 255 visible ASCII characters (e.g. a UUID)',
      });
    }
    // The structured-field form of the IETF draft is accepted and means the bare value.
    const key = randomUUID();
    expect((await post(valid, `"${key}"`)).status).toBe(201);
    expect((await post(valid, key)).headers.get('idempotent-replayed')).toBe('true');
    const list = await t.request('GET', '/v1/projects', { token: keys.fullKey, headers: { 'idempotency-key': 'x' } });
    expect(list.status).toBe(200);
  });

  it('covers the operator API too: a retried API-key creation returns the same key once created', async () => {
    const ws = await t.provision({ name: 'Operator retries' });
    const create = () =>
      t.request('POST', `/v1/admin/workspaces/${ws.workspaceId}/api-keys`, {
        token: ADMIN_TOKEN,
        body: { name: 'Retried bot', scope: 'read_only' },
        headers: { 'idempotency-key': 'create-retried-bot' },
      });
    const first = await create();
    const retry = await create();
    expect(first.status).toBe(201);
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // The replayed key is the real one.
    expect((await t.request('GET', '/v1/projects', { token: retry.body.key })).status).toBe(200);
  });

  it('keeps stored responses sealed: the database holds no body, id or secret in clear', async () => {
    const key = randomUUID();
    const created = await post(valid, key);
    const apiKey = await t.request('POST', `/v1/admin/workspaces/${keys.workspaceId}/api-keys`, {
      token: ADMIN_TOKEN,
      body: { name: 'Sealed', scope: 'read_only' },
      headers: { 'idempotency-key': key },
    });
    expect(apiKey.status).toBe(201);
    const db = new Database(join(t.dataDir, 'idempotency.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT body, fingerprint FROM idempotency_records WHERE key = ?').all(key) as {
        body: string;
        fingerprint: string;
      }[];
      expect(rows).toHaveLength(2); // one per caller: the API key's and the operator's
      for (const row of rows) {
        expect(row.body).toMatch(/^v1\./);
        expect(row.body).not.toContain(created.body.id);
        expect(row.body).not.toContain(apiKey.body.key);
        expect(row.fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/); // an HMAC-SHA256, not the request
      }
    } finally {
      db.close();
    }
  });

  describe('with the original running on another instance (sharing the store)', () => {
    let app: TestApp;
    let ws: Awaited<ReturnType<TestApp['provision']>>;
    let elsewhere: SqliteIdempotencyStore;
    beforeAll(async () => {
      // A 1 s request timeout: a duplicate waits at most half of it before it is told to retry.
      app = await TestApp.start({}, undefined, { bounds: { handlerTimeoutMs: 1_000 } });
      ws = await app.provision();
      elsewhere = new SqliteIdempotencyStore(join(app.dataDir, 'idempotency.db'));
    });
    afterAll(async () => {
      await elsewhere.close();
      await app.stop();
    });

    /** Claims `key` as another instance running the same request would. */
    const holdElsewhere = async (key: string) => {
      const scope = `api_key:${ws.fullKeyId}`;
      const sealer = new ResponseSealer(ws.fullKey, scope);
      const now = Date.now();
      const claim = {
        scope,
        key,
        fingerprint: sealer.fingerprint('POST', '/v1/projects', valid),
        owner: 'other-instance',
        now,
        lockedUntil: now + 60_000,
        expiresAt: now + 60_000,
      };
      expect(await elsewhere.claim(claim)).toEqual({ outcome: 'claimed' });
      return { scope, sealer };
    };
    const send = (key: string) =>
      app.request('POST', '/v1/projects', { token: ws.fullKey, body: valid, headers: { 'idempotency-key': key } });

    it('waits for it and replays its response', async () => {
      const key = randomUUID();
      const { scope, sealer } = await holdElsewhere(key);
      const body = JSON.stringify({ id: 'prj_made_elsewhere' });
      setTimeout(() => {
        void elsewhere.complete(scope, key, 'other-instance', {
          status: 201,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: sealer.seal(body, `${scope}\u0000${key}`),
        });
      }, 200);
      const started = Date.now();
      const res = await send(key);
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: { id: 'prj_made_elsewhere' } });
      expect(res.headers.get('idempotent-replayed')).toBe('true');
      expect(await count(ws.fullKey, app)).toBe(0);
    });

    it('answers 409 with Retry-After when it does not finish in time, and runs the request once it is released', async () => {
      const key = randomUUID();
      await holdElsewhere(key);
      const res = await send(key);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/still being processed/);
      expect(res.headers.get('retry-after')).toBe('1');
      await elsewhere.release(`api_key:${ws.fullKeyId}`, key, 'other-instance');
      const retry = await send(key);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
    });
  });

  it('keeps records across a restart', async () => {
    const first = await TestApp.start();
    const ws = await first.provision();
    const key = randomUUID();
    const created = await first.request('POST', '/v1/projects', {
      token: ws.fullKey,
      body: valid,
      headers: { 'idempotency-key': key },
    });
    await first.stop({ keepData: true });
    const again = await TestApp.start({}, first.dataDir);
    try {
      const retry = await again.request('POST', '/v1/projects', {
        token: ws.fullKey,
        body: valid,
        headers: { 'idempotency-key': key },
      });
      expect({ status: retry.status, body: retry.body }).toEqual({ status: 201, body: created.body });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      await again.stop();
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});
