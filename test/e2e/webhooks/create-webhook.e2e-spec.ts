import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TYPES, NOT_PUBLIC, t, keys, valid, useWebhooksApp, post, get, create } from './webhooks-fixture';

describe('Webhooks (docs/api.md, Webhooks) over HTTP', () => {
  useWebhooksApp();

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
});
