import { Refusal, STATUS_REFUSALS } from '../shared-refusals';
import { t, valid, useProjectsApp, get, patch, create } from './projects-fixture';

describe('Projects (docs/api.md, Projects) over HTTP', () => {
  useProjectsApp();

  describe('PATCH /projects/{id}', () => {
    it('changes only the supplied fields and answers 200 { message }', async () => {
      const id = await create({ end_date: '2026-09-01', external_id: 'X' });
      const before = (await get(id)).body;
      const res = await patch(id, { name: 'Renamed', laanc_number: 'LAANC-7' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Project updated successfully' });
      const after = (await get(id)).body;
      expect(after).toEqual({ ...before, name: 'Renamed', laanc_number: 'LAANC-7', updated: after.updated });
      expect(after.updated).toBeGreaterThanOrEqual(before.updated);
    });

    it('clears nullable fields with null', async () => {
      const id = await create({ end_date: '2026-09-01', external_id: 'X' });
      await patch(id, { laanc_number: 'L' });
      expect((await patch(id, { end_date: null, external_id: null, laanc_number: null })).status).toBe(200);
      expect((await get(id)).body).toMatchObject({ end_date: null, external_id: null, laanc_number: null });
    });

    it.each<Refusal>([
      ...STATUS_REFUSALS,
      ['empty name', { name: '' }, 'name must be between 1 and 100 characters'],
      ['null name', { name: null }, 'name must be a string'],
      ['empty description', { description: '' }, 'description must be between 1 and 1000 characters'],
      ['long description', { description: 'd'.repeat(1001) }, 'description must be between 1 and 1000 characters'],
      ['bad start_date', { start_date: '2026-13-01' }, 'start_date must be a valid ISO date string'],
      ['bad end_date', { end_date: 'never' }, 'end_date must be a valid ISO date string'],
      ['end before stored start', { end_date: '2026-01-01' }, 'end_date must be after start_date'],
      ['start after stored end', { start_date: '2026-12-01' }, 'end_date must be after start_date'],
      ['long laanc_number', { laanc_number: 'l'.repeat(101) }, 'laanc_number must not exceed 100 characters'],
      ['unknown field', { archived: true }, 'archived is not an allowed field'],
    ])('refuses %s with 400 and changes nothing', async (_name, body, message) => {
      const id = await create({ end_date: '2026-09-01' });
      const before = (await get(id)).body;
      const res = await patch(id, body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
      expect((await get(id)).body).toEqual(before);
    });

    it('accepts status other with its reason', async () => {
      const id = await create();
      expect((await patch(id, { status: 'other', other_status_reason: 'Client paused' })).status).toBe(200);
      expect((await get(id)).body.status).toBe('other');
    });

    it('answers 404 for unknown, foreign and deleted projects', async () => {
      expect(await patch('prj_missing', { name: 'x' })).toMatchObject({
        status: 404,
        body: { message: 'Project not found' },
      });
      const other = await t.provision({ name: 'Other2' });
      const theirs = await create({}, other.fullKey);
      expect(await patch(theirs, { name: 'hijack' })).toMatchObject({
        status: 404,
        body: { message: 'Project not found' },
      });
      expect((await get(theirs, other.fullKey)).body.name).toBe(valid.name);
    });
  });

  it('applies concurrent PATCHes of different fields all together', async () => {
    const id = await create();
    const results = await Promise.all([
      patch(id, { name: 'N1' }),
      patch(id, { description: 'D1' }),
      patch(id, { status: 'in_progress' }),
      patch(id, { laanc_number: 'L1' }),
      patch(id, { external_id: 'E1' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await get(id)).body).toMatchObject({
      name: 'N1',
      description: 'D1',
      status: 'in_progress',
      laanc_number: 'L1',
      external_id: 'E1',
    });
  });
});
