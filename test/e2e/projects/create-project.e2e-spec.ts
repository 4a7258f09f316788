import { CREATE_NAME_REFUSALS, Refusal, STATUS_REFUSALS } from '../shared-refusals';
import { STATUS_MESSAGE, t, keys, valid, useProjectsApp, post, get, create } from './projects-fixture';

describe('Projects (docs/api.md, Projects) over HTTP', () => {
  useProjectsApp();

  describe('POST /projects', () => {
    it('creates a project and answers 201 { id }; a GET right after sees every field', async () => {
      const res = await post({ ...valid, end_date: '2026-06-30', external_id: 'ERP-1' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['id']);
      const read = await get(res.body.id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        id: res.body.id,
        name: 'Bridge survey',
        description: 'Quarterly inspection',
        status: 'planned',
        start_date: '2026-03-01',
        end_date: '2026-06-30',
        created: expect.any(Number),
        updated: expect.any(Number),
        archived: false,
        external_id: 'ERP-1',
        laanc_number: null,
        created_by: { id: keys.fullKeyId, email: null, first_name: 'Ops bot', last_name: null, profile_picture: null },
      });
      expect(read.body.created).toBe(read.body.updated);
      expect(Math.abs(read.body.created - Date.now())).toBeLessThan(60_000);
    });

    it('accepts status other with a reason, which is write-only', async () => {
      const id = await create({ status: 'other', other_status_reason: 'Awaiting permit' });
      const read = await get(id);
      expect(read.body.status).toBe('other');
      expect(read.body).not.toHaveProperty('other_status_reason');
    });

    it.each<Refusal>([
      ...CREATE_NAME_REFUSALS,
      ...STATUS_REFUSALS,
      ['missing start_date', { start_date: undefined }, 'start_date is required'],
      ['bad start_date', { start_date: '03/01/2026' }, 'start_date must be a valid ISO date string'],
      ['impossible start_date', { start_date: '2026-02-30' }, 'start_date must be a valid ISO date string'],
      ['bad end_date', { end_date: 'soon' }, 'end_date must be a valid ISO date string'],
      ['end_date before start_date', { end_date: '2026-02-01' }, 'end_date must be after start_date'],
      ['end_date equal to start_date', { end_date: '2026-03-01' }, 'end_date must be after start_date'],
      ['missing description', { description: undefined }, 'description is required'],
      ['long description', { description: 'd'.repeat(1001) }, 'description must be between 1 and 1000 characters'],
      ['missing status', { status: undefined }, STATUS_MESSAGE],
      ['unknown field', { color: 'red' }, 'color is not an allowed field'],
      ['laanc_number on create', { laanc_number: 'L-1' }, 'laanc_number is not an allowed field'],
    ])('refuses %s with 400', async (_name, overrides, message) => {
      const before = await t.request('GET', '/v1/projects?archived=false', { token: keys.fullKey });
      const res = await post({ ...valid, ...overrides });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
      const after = await t.request('GET', '/v1/projects?archived=false', { token: keys.fullKey });
      expect(after.body.count).toBe(before.body.count);
    });

    it('counts characters, not UTF-16 units', async () => {
      expect((await post({ ...valid, name: '🚁'.repeat(100) })).status).toBe(201);
      expect((await post({ ...valid, name: '🚁'.repeat(101) })).body).toEqual({
        message: 'name must be between 1 and 100 characters',
      });
    });

    it('refuses bodies that are not JSON objects', async () => {
      for (const rawBody of ['[]', '"text"', '42', 'null']) {
        const res = await t.request('POST', '/v1/projects', {
          token: keys.fullKey,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBe(400);
        expect(typeof res.body.message).toBe('string');
      }
    });

    it('refuses malformed JSON, prototype poisoning, a body over 1 MB and other content types with JSON 4xx', async () => {
      const send = (rawBody: string, type = 'application/json') =>
        t.request('POST', '/v1/projects', { token: keys.fullKey, rawBody, headers: { 'content-type': type } });
      const malformed = await send('{"name": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toMatch(/JSON/);
      const poisoned = await send(JSON.stringify(valid).replace('{', '{"__proto__": {"admin": true},'));
      expect(poisoned.status).toBe(400);
      const huge = await send(JSON.stringify({ ...valid, description: 'x'.repeat(1024 * 1024 + 10) }));
      expect(huge.status).toBe(413);
      expect(typeof huge.body.message).toBe('string');
      const xml = await send('<project/>', 'application/xml');
      expect(xml.status).toBe(415);
      expect(typeof xml.body.message).toBe('string');
    });
  });
});
