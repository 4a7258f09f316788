import { expectEachPatchRecordedOnce } from '../../support/job-history';
import { Refusal, STATUS_REFUSALS } from '../shared-refusals';
import { NOT_RECURRING } from '@app/domain/jobs/job.spec-helper';
import {
  today,
  plusDays,
  t,
  keys,
  other,
  start,
  valid,
  useJobsApp,
  createProject,
  jobsPath,
  get,
  patch,
  create,
  expect404,
} from './jobs-fixture';

describe('Jobs (docs/api.md, Jobs) over HTTP', () => {
  useJobsApp();

  describe('PATCH /projects/{projectId}/jobs/{jobId}', () => {
    const located = () => ({
      ...valid(),
      job_pattern: 'recurring',
      recurring_frequency: 'weekly',
      end_date: plusDays(start, 60),
      latitude: 52.37,
      longitude: 4.89,
      capture_types: ['thermal_inspection'],
      external_id: 'ERP-9',
      recurring_interval: 2,
      selected_days_of_week: [1, 4],
      week_of_month: 2,
      weeks_of_month: [1, -1],
      flights_per_occurrence: 3,
    });

    it('changes only the supplied fields and answers 200 { message }', async () => {
      const id = await create(located());
      const before = (await get(id)).body;
      const res = await patch(id, { name: 'Renamed', priority: 'high', capture_types: ['thermal_inspection'] });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: { message: 'Job updated successfully' },
      });
      const after = (await get(id)).body;
      expect(after).toEqual({ ...before, name: 'Renamed', priority: 'high', updated: after.updated });
      expect(after.updated).toBeGreaterThanOrEqual(before.updated);
    });

    it('clears the nullable fields with null (latitude and longitude together)', async () => {
      const id = await create(located());
      const cleared = {
        end_date: null,
        latitude: null,
        longitude: null,
        capture_types: null,
        external_id: null,
        ...NOT_RECURRING,
      };
      expect((await patch(id, cleared)).status).toBe(200);
      expect((await get(id)).body).toMatchObject(cleared);
    });

    it('moves one coordinate when both are stored, and accepts the end on the start day', async () => {
      const id = await create(located());
      expect((await patch(id, { latitude: -33.9 })).status).toBe(200);
      expect((await patch(id, { end_date: start })).status).toBe(200);
      expect((await get(id)).body).toMatchObject({ latitude: -33.9, longitude: 4.89, end_date: start });
    });

    it('accepts status other with its reason, and sending back an old start_date unchanged', async () => {
      const id = await create({ ...located(), start_date: plusDays(today(), -150) });
      expect((await patch(id, { status: 'other', other_status_reason: 'Client asked to wait' })).status).toBe(200);
      expect((await patch(id, { start_date: plusDays(today(), -150), name: 'Same start' })).status).toBe(200);
      expect((await get(id)).body).toMatchObject({ status: 'other', name: 'Same start' });
    });

    it.each<Refusal>([
      ...STATUS_REFUSALS,
      ['empty name', { name: '' }, 'name must be between 1 and 100 characters'],
      ['null name', { name: null }, 'name must be a string'],
      ['unknown priority', { priority: 'asap' }, 'priority must be one of: low, medium, high'],
      ['null priority', { priority: null }, 'priority must be one of: low, medium, high'],
      ['bad start_date', { start_date: '2026-13-01' }, 'start_date must be a valid ISO date string'],
      ['null start_date', { start_date: null }, 'start_date must be a valid ISO date string'],
      [
        'start_date 7 months back',
        { start_date: plusDays(today(), -215) },
        'start_date cannot be more than 6 months in the past',
      ],
      ['end before the stored start', { end_date: plusDays(start, -1) }, 'end_date cannot be before start_date'],
      ['start after the stored end', { start_date: plusDays(start, 61) }, 'end_date cannot be before start_date'],
      ['latitude out of range', { latitude: 100 }, 'latitude must be between -90 and 90'],
      ['longitude out of range', { longitude: -200 }, 'longitude must be between -180 and 180'],
      ['clearing latitude alone', { latitude: null }, 'Both latitude and longitude must be provided together'],
      ['clearing longitude alone', { longitude: null }, 'Both latitude and longitude must be provided together'],
      ['unknown type', { type: 'teleportation' }, 'type must match a job type configured in the workspace'],
      ['null type', { type: null }, 'type must be a string'],
      ['unknown job_pattern', { job_pattern: 'sometimes' }, 'job_pattern must be one_time or recurring'],
      ['null description', { description: null }, 'description must be a string'],
      ['null inspection_notes', { inspection_notes: null }, 'inspection_notes must be a string'],
      [
        'flexible with the stored interval',
        { recurring_frequency: 'flexible' },
        'recurring_interval is not allowed when recurring_frequency is flexible',
      ],
      [
        'weekday -1',
        { selected_days_of_week: [-1] },
        'selected_days_of_week must contain only integers from 0 (Sunday) to 6 (Saturday)',
      ],
      ['11 flights', { flights_per_occurrence: 11 }, 'flights_per_occurrence must be an integer between 1 and 10'],
      ['unknown field', { project_id: 'prj_other' }, 'project_id is not an allowed field'],
    ])('refuses %s with 400 and changes nothing', async (_name, body, message) => {
      const id = await create(located());
      const before = (await get(id)).body;
      const res = await patch(id, body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
      expect((await get(id)).body).toEqual(before);
    });

    it('refuses setting a coordinate when none is stored', async () => {
      const id = await create();
      const res = await patch(id, { longitude: 5 });
      expect(res.body).toEqual({ message: 'Both latitude and longitude must be provided together' });
      expect((await patch(id, { latitude: 1, longitude: 5 })).status).toBe(200);
    });

    it('answers 404 for a missing, foreign or deleted job, and for a missing project', async () => {
      expect404(await patch('job_missing', { name: 'x' }), 'Job not found');
      const theirProject = await createProject(other);
      const theirs = await create({}, theirProject, other.fullKey);
      expect404(await patch(theirs, { name: 'hijack' }, theirProject), 'Project not found');
      expect404(await patch(theirs, { name: 'hijack' }), 'Job not found');
      expect((await get(theirs, theirProject, other.fullKey)).body.name).toBe('Blade inspection');
      const id = await create();
      await t.request('DELETE', `${jobsPath()}/${id}`, { token: keys.fullKey });
      expect404(await patch(id, { name: 'x' }), 'Job not found');
      expect404(await patch(id, { name: 'x' }, 'prj_missing'), 'Project not found');
    });

    it('applies 50 concurrent PATCHes of different fields: every one is recorded and takes effect', async () => {
      const id = await create({
        ...located(),
        recurring_interval: null,
        week_of_month: null,
        weeks_of_month: null,
        flights_per_occurrence: null,
        selected_days_of_week: null,
        capture_types: null,
      });
      const patches: Record<string, unknown>[] = [
        ...[1, 2, 3, 4, 5].map((i) => ({ name: `Name ${i}` })),
        ...[1, 2, 3, 4, 5].map((i) => ({ description: `Description ${i}` })),
        ...[1, 2, 3, 4, 5].map((i) => ({ inspection_notes: `Notes ${i}` })),
        ...[1, 2, 3, 4, 5].map((i) => ({ external_id: `EXT-${i}` })),
        ...['planned', 'in_progress', 'completed', 'on_hold'].map((status) => ({ status })),
        ...['low', 'high'].map((priority) => ({ priority })),
        ...['thermal_inspection', '3d_mapping', 'cell_tower'].map((type) => ({ type })),
        { job_pattern: 'one_time' },
        ...[['panorama'], ['lidar_scan'], ['orthomosaic', 'ground_360']].map((capture_types) => ({ capture_types })),
        ...['daily', 'monthly', 'yearly'].map((recurring_frequency) => ({ recurring_frequency })),
        ...[2, 3, 4].map((recurring_interval) => ({ recurring_interval })),
        ...[[0], [2, 3], [6]].map((selected_days_of_week) => ({ selected_days_of_week })),
        ...[2, 3].map((week_of_month) => ({ week_of_month })),
        { weeks_of_month: [4] },
        { flights_per_occurrence: 7 },
        { start_date: plusDays(start, 1) },
        { end_date: plusDays(start, 40) },
        { latitude: 10.5 },
        { longitude: 20.25 },
      ];
      expect(patches).toHaveLength(50);
      const results = await Promise.all(patches.map((body) => patch(id, body)));
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));

      // Every PATCH is one job.updated event carrying exactly its change, and the job shows, for
      // every field, the last of its changes in the recorded order.
      const history = (cursor: string | null) =>
        t.request('GET', `${jobsPath()}/${id}/history${cursor ? `?cursor=${cursor}` : ''}`, { token: keys.readKey });
      const expected = await expectEachPatchRecordedOnce(history, patches);
      expect((await get(id)).body).toMatchObject(expected);
    });
  });
});
