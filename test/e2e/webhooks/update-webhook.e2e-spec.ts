import { NOT_PUBLIC, useWebhooksApp, get, patch, create } from './webhooks-fixture';

describe('Webhooks (docs/api.md, Webhooks) over HTTP', () => {
  useWebhooksApp();

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
});
