import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestApp } from '../support/test-app';

const TYPES =
  'project.created, project.updated, project.deleted, job.created, job.updated, job.deleted, job_type.created, job_type.deleted';
const NOT_PUBLIC = 'url must not point to a private, loopback, link-local or otherwise internal address';

/**
 * The webhook API of docs/api.md, Webhooks and what it leaves out (single read, delete, test, deliveries,
 * recover, rotation), in-process and without deliveries: URLs point at names that never resolve
 * (`.invalid`), so nothing leaves the machine. Real deliveries: webhooks-delivery.e2e-spec.ts.
 */
describe('Webhooks (docs/api.md, Webhooks) over HTTP', () => {
  let t: TestApp;
  let keys: Awaited<ReturnType<TestApp['provision']>>;
  const valid = {
    name: 'Ops feed',
    url: 'https://hooks.example.invalid/in',
    event_types: ['project.created', 'project.updated'],
  };

  beforeAll(async () => {
    t = await TestApp.start();
    keys = await t.provision();
  });
  afterAll(() => t.stop());

  const post = (body: unknown, token = keys.fullKey) => t.request('POST', '/v1/webhooks', { token, body });
  const get = (id: string, token = keys.fullKey) => t.request('GET', `/v1/webhooks/${id}`, { token });
  const patch = (id: string, body: unknown, token = keys.fullKey) =>
    t.request('PATCH', `/v1/webhooks/${id}`, { token, body });
  const create = async (overrides: object = {}, token = keys.fullKey) => {
    const res = await post({ ...valid, ...overrides }, token);
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };

  describe('POST /webhooks', () => {
    it('answers 201 with the subscription, active, and its secret shown this once', async () => {
      const res = await post(valid);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual([
        'id',
        'name',
        'url',
        'event_types',
        'status',
        'secret',
        'created',
        'message',
      ]);
      expect(res.body).toMatchObject({
        name: 'Ops feed',
        url: valid.url,
        event_types: valid.event_types,
        status: 'active',
      });
      expect(res.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(typeof res.body.message).toBe('string');
      const read = await get(res.body.id);
      expect(read.body).toEqual({
        id: res.body.id,
        name: 'Ops feed',
        url: valid.url,
        event_types: valid.event_types,
        status: 'active',
        failure_count: 0,
        created: res.body.created,
        updated: res.body.created,
        created_by: { id: keys.fullKeyId, email: null, first_name: 'Ops bot', last_name: null },
        last_triggered_at: null,
      });
    });

    it('never stores the secret in clear: not in the event history, the read models or any file of DATA_DIR', async () => {
      const { secret } = await create();
      const hex = secret.slice('whsec_'.length);
      for (const file of readdirSync(t.dataDir)) {
        const bytes = readFileSync(join(t.dataDir, file));
        expect({ file, found: bytes.includes(hex) }).toEqual({ file, found: false });
      }
    });

    it.each<[string, object, string]>([
      ['missing name', { name: undefined }, 'name is required'],
      ['null name', { name: null }, 'name is required'],
      ['short name', { name: 'x' }, 'name must be between 2 and 100 characters'],
      ['long name', { name: 'n'.repeat(101) }, 'name must be between 2 and 100 characters'],
      ['numeric name', { name: 7 }, 'name must be a string'],
      ['missing url', { url: undefined }, 'url is required'],
      ['http url', { url: 'http://hooks.example.invalid/in' }, 'url must start with https://'],
      ['url without scheme', { url: 'hooks.example.invalid' }, 'url must start with https://'],
      ['numeric url', { url: 42 }, 'url must be a string'],
      ['unparseable url', { url: 'https://exa mple.invalid/' }, 'url must be a valid URL'],
      ['huge url', { url: `https://hooks.example.invalid/${'a'.repeat(2048)}` }, 'url must not exceed 2048 characters'],
      [
        'missing event_types',
        { event_types: undefined },
        `event_types is required and must include at least one of: ${TYPES}`,
      ],
      ['empty event_types', { event_types: [] }, `event_types is required and must include at least one of: ${TYPES}`],
      [
        'event_types not a list',
        { event_types: 'project.created' },
        `event_types is required and must include at least one of: ${TYPES}`,
      ],
      [
        'unknown event type',
        { event_types: ['project.created', 'job_type.updated'] },
        'Invalid event type: job_type.updated',
      ],
      ['non-string event type', { event_types: [3] }, 'Invalid event type: 3'],
      ['unknown field', { secret: 'whsec_0000' }, 'secret is not an allowed field'],
    ])('refuses %s with 400', async (_name, overrides, message) => {
      const res = await post({ ...valid, ...overrides });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
    });

    it.each([
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://api.localhost/hook',
      'https://10.0.0.5/hook',
      'https://172.16.3.4/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
      'https://224.0.0.1/hook',
      'https://2130706433/hook',
      'https://0x7f.1/hook',
      'https://[::1]/hook',
      'https://[::]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:a9fe:a9fe]/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'https://[fd00:ec2::254]/hook',
    ])('refuses the internal target %s with 400', async (url) => {
      const res = await post({ ...valid, url });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message: NOT_PUBLIC } });
    });

    it('refuses writes with a read-only key', async () => {
      const res = await post(valid, keys.readKey);
      expect(res.status).toBe(403);
      expect(res.body.code_name).toBe('read_only_access');
    });
  });

  describe('GET /webhooks', () => {
    it('pages 50 at a time, without secrets, only the workspace’s own', async () => {
      const ws = await t.provision({ name: 'Many hooks' });
      const ids: string[] = [];
      for (let i = 0; i < 55; i++) ids.push((await create({ name: `Hook ${i}` }, ws.fullKey)).id);
      const first = await t.request('GET', '/v1/webhooks', { token: ws.readKey });
      expect(first.status).toBe(200);
      expect(first.body.count).toBe(50);
      expect(first.text).not.toContain('whsec_');
      expect(first.body.webhooks.every((w: object) => !('secret' in w))).toBe(true);
      const second = await t.request('GET', `/v1/webhooks?cursor=${first.body.cursor}`, { token: ws.readKey });
      expect(second.body).toMatchObject({ count: 5, cursor: null });
      expect([...first.body.webhooks, ...second.body.webhooks].map((w: { id: string }) => w.id)).toEqual(ids);
      expect((await t.request('GET', '/v1/webhooks?cursor=bogus!', { token: ws.readKey })).body).toEqual({
        message: 'cursor is invalid',
      });
    });
  });

  describe('PATCH /webhooks/{id}', () => {
    it('changes only the supplied fields', async () => {
      const { id } = await create();
      const before = (await get(id)).body;
      const res = await patch(id, { name: 'Renamed', event_types: ['job.created', 'job.created'] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Webhook updated successfully' });
      const after = (await get(id)).body;
      expect(after).toEqual({ ...before, name: 'Renamed', event_types: ['job.created'], updated: after.updated });
      expect(after.updated).toBeGreaterThanOrEqual(before.updated);
    });

    it('pauses and re-activates', async () => {
      const { id } = await create();
      expect((await patch(id, { status: 'paused' })).status).toBe(200);
      expect((await get(id)).body).toMatchObject({ status: 'paused', failure_count: 0 });
      expect((await patch(id, { status: 'active' })).status).toBe(200);
      expect((await get(id)).body.status).toBe('active');
    });

    it.each<[string, object, string]>([
      ['an empty body', {}, 'At least one field to update is required (name, url, event_types, status)'],
      ['a numeric name', { name: 5 }, 'name must be a string'],
      ['a null name', { name: null }, 'name must be a string'],
      ['a short name', { name: 'x' }, 'name must be between 2 and 100 characters'],
      ['an http url', { url: 'http://hooks.example.invalid' }, 'url must be a string starting with https://'],
      ['a numeric url', { url: 1 }, 'url must be a string starting with https://'],
      ['an internal url', { url: 'https://[::ffff:10.0.0.1]/x' }, NOT_PUBLIC],
      ['empty event_types', { event_types: [] }, 'event_types must be a non-empty array'],
      ['event_types not a list', { event_types: 'job.created' }, 'event_types must be a non-empty array'],
      ['an unknown event type', { event_types: ['job.archived'] }, 'Invalid event type: job.archived'],
      ['an unknown status', { status: 'disabled' }, 'status must be one of: active, paused'],
      ['an unknown field', { failure_count: 0 }, 'failure_count is not an allowed field'],
    ])('refuses %s with 400', async (_name, body, message) => {
      const { id } = await create();
      const res = await patch(id, body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
    });
  });

  describe('another workspace’s or a missing webhook', () => {
    it('is 404 Webhook not found for every operation, and stays untouched', async () => {
      const other = await t.provision({ name: 'Other' });
      const theirs = await create({}, other.fullKey);
      const notFound = { status: 404, body: { message: 'Webhook not found' } };
      for (const id of [theirs.id, 'whk_missing']) {
        expect(await get(id)).toMatchObject(notFound);
        expect(await patch(id, { name: 'Mine now' })).toMatchObject(notFound);
        expect(await patch(id, { url: 'https://127.0.0.1/x' })).toMatchObject(notFound);
        expect(await t.request('DELETE', `/v1/webhooks/${id}`, { token: keys.fullKey })).toMatchObject(notFound);
        expect(await t.request('POST', `/v1/webhooks/${id}/test`, { token: keys.fullKey })).toMatchObject(notFound);
        expect(await t.request('GET', `/v1/webhooks/${id}/deliveries`, { token: keys.fullKey })).toMatchObject(
          notFound,
        );
        expect(
          await t.request('POST', `/v1/webhooks/${id}/recover`, { token: keys.fullKey, body: { since: 0 } }),
        ).toMatchObject(notFound);
        expect(await t.request('POST', `/v1/webhooks/${id}/rotate-secret`, { token: keys.fullKey })).toMatchObject(
          notFound,
        );
      }
      expect((await get(theirs.id, other.readKey)).body.name).toBe('Ops feed');
    });
  });

  describe('DELETE /webhooks/{id}', () => {
    it('answers 204 with an empty body; afterwards the webhook is gone', async () => {
      const { id } = await create();
      const res = await t.request('DELETE', `/v1/webhooks/${id}`, { token: keys.fullKey });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get(id)).status).toBe(404);
    });
  });

  describe('POST /webhooks/{id}/rotate-secret', () => {
    it('shows a new secret once, and when the previous one stops signing', async () => {
      const { id, secret } = await create();
      const res = await t.request('POST', `/v1/webhooks/${id}/rotate-secret`, { token: keys.fullKey });
      expect(res.status).toBe(200);
      expect(res.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(res.body.secret).not.toBe(secret);
      expect(res.body.previous_secret_expires_at - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
      expect((await get(id)).text).not.toContain('whsec_');
    });
  });

  describe('POST /webhooks/{id}/test and GET /webhooks/{id}/deliveries', () => {
    it('reports a failed attempt (unresolvable host) and logs it', async () => {
      const { id } = await create();
      const res = await t.request('POST', `/v1/webhooks/${id}/test`, { token: keys.fullKey });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        message: 'Test delivery failed',
        delivery: {
          event_type: 'webhook.test',
          attempt: 1,
          succeeded: false,
          response_status: null,
          error: 'Could not resolve hooks.example.invalid',
        },
      });
      const log = await t.request('GET', `/v1/webhooks/${id}/deliveries`, { token: keys.readKey });
      expect(log.body).toMatchObject({ count: 1, cursor: null });
      expect(log.body.deliveries[0]).toEqual(res.body.delivery);
      const after = (await get(id)).body;
      expect(after.last_triggered_at).toBe(res.body.delivery.attempted_at);
      expect(after.failure_count).toBe(0); // a test never counts
    });
  });

  describe('POST /webhooks/{id}/recover', () => {
    it.each<[string, object, string]>([
      ['no since', {}, 'since is required'],
      ['a text since', { since: 'yesterday' }, 'since must be a timestamp in milliseconds'],
      ['a negative since', { since: -1 }, 'since must be a timestamp in milliseconds'],
      ['until before since', { since: 10, until: 5 }, 'until must be after since'],
    ])('refuses %s with 400', async (_name, body, message) => {
      const { id } = await create();
      const res = await t.request('POST', `/v1/webhooks/${id}/recover`, { token: keys.fullKey, body });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
    });

    it('answers 202 with the count, and 409 while the subscription is paused', async () => {
      const { id } = await create();
      const res = await t.request('POST', `/v1/webhooks/${id}/recover`, { token: keys.fullKey, body: { since: 0 } });
      expect({ status: res.status, count: res.body.count }).toEqual({ status: 202, count: 0 });
      await patch(id, { status: 'paused' });
      const paused = await t.request('POST', `/v1/webhooks/${id}/recover`, { token: keys.fullKey, body: { since: 0 } });
      expect(paused.status).toBe(409);
      expect(paused.body).toEqual({
        message: 'Webhook is paused; set its status to active before recovering deliveries',
      });
    });
  });
});
