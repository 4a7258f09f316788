import { CREATE_NAME_REFUSALS, Refusal, STATUS_REFUSALS } from '../shared-refusals';
import { NOT_RECURRING } from '@app/domain/jobs/job.spec-helper';
import {
  CAPTURE_TYPES,
  today,
  plusDays,
  t,
  keys,
  other,
  projectId,
  start,
  valid,
  useJobsApp,
  createProject,
  jobsPath,
  post,
  get,
  create,
  expect404,
} from './jobs-fixture';

describe('Jobs (docs/api.md, Jobs) over HTTP', () => {
  useJobsApp();

  describe('POST /projects/{projectId}/jobs', () => {
    it('creates a job with defaults; GET shows exactly the documented Job object', async () => {
      const id = await create();
      const res = await get(id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id,
        name: 'Blade inspection',
        description: null,
        type: 'wind_turbine',
        status: 'not_started',
        priority: 'medium',
        job_pattern: 'one_time',
        start_date: start,
        end_date: null,
        latitude: null,
        longitude: null,
        project_id: projectId,
        inspection_notes: null,
        capture_types: null,
        external_id: null,
        created: expect.any(Number),
        updated: expect.any(Number),
        ...NOT_RECURRING,
      });
      expect(Object.keys(res.body)).toEqual([
        'id', 'name', 'description', 'type', 'status', 'priority', 'job_pattern', 'start_date', 'end_date',
        'latitude', 'longitude', 'project_id', 'inspection_notes', 'capture_types', 'external_id', 'created',
        'updated', 'recurring_frequency', 'recurring_interval', 'selected_days_of_week', 'week_of_month',
        'weeks_of_month', 'flights_per_occurrence',
      ]); // prettier-ignore
      expect(res.body.created).toBe(res.body.updated);
      expect(Math.abs(res.body.created - Date.now())).toBeLessThan(60_000);
    });

    it('stores every field given, at the bounds; other_status_reason stays write-only', async () => {
      const body = {
        ...valid(),
        name: 'n'.repeat(100),
        job_pattern: 'recurring',
        status: 'other',
        other_status_reason: 'Waiting for the landowner',
        priority: 'high',
        description: 'd'.repeat(1000),
        end_date: start,
        latitude: -90,
        longitude: 180,
        inspection_notes: 'i'.repeat(2000),
        capture_types: CAPTURE_TYPES,
        external_id: 'e'.repeat(255),
        recurring_frequency: 'monthly',
        recurring_interval: 365,
        selected_days_of_week: [0, 1, 2, 3, 4, 5, 6],
        week_of_month: -1,
        weeks_of_month: [1, 2, 3, 4, -1],
        flights_per_occurrence: 10,
      };
      const id = await create(body);
      const { other_status_reason: _writeOnly, ...shown } = body;
      const read = await get(id);
      expect(read.body).toMatchObject({ ...shown, id, project_id: projectId });
      expect(read.body).not.toHaveProperty('other_status_reason');
    });

    it('accepts a start date 5 months back and null for every optional field', async () => {
      const id = await create({
        start_date: plusDays(today(), -150),
        end_date: null,
        latitude: null,
        longitude: null,
        description: null,
        capture_types: null,
        status: null,
        priority: null,
        recurring_interval: null,
      });
      expect((await get(id)).body).toMatchObject({ status: 'not_started', priority: 'medium', end_date: null });
    });

    it.each<Refusal>([
      ...CREATE_NAME_REFUSALS,
      ...STATUS_REFUSALS,
      ['missing type', { type: undefined }, 'type is required'],
      ['numeric type', { type: 3 }, 'type must be a string'],
      ['unknown type', { type: 'crop_dusting' }, 'type must match a job type configured in the workspace'],
      ['missing job_pattern', { job_pattern: undefined }, 'job_pattern must be one_time or recurring'],
      ['unknown job_pattern', { job_pattern: 'weekly' }, 'job_pattern must be one_time or recurring'],
      ['missing start_date', { start_date: undefined }, 'start_date is required'],
      ['bad start_date', { start_date: '2026/12/01' }, 'start_date must be a valid ISO date string'],
      ['impossible start_date', { start_date: '2027-02-29' }, 'start_date must be a valid ISO date string'],
      [
        'start_date 7 months back',
        { start_date: plusDays(today(), -215) },
        'start_date cannot be more than 6 months in the past',
      ],
      ['bad end_date', { end_date: 'later' }, 'end_date must be a valid ISO date string'],
      ['end_date before start_date', { end_date: plusDays(today(), 29) }, 'end_date must be on or after start_date'],
      ['latitude above 90', { latitude: 90.5, longitude: 0 }, 'latitude must be between -90 and 90'],
      ['latitude below -90', { latitude: -91, longitude: 0 }, 'latitude must be between -90 and 90'],
      ['latitude as text', { latitude: '45', longitude: 0 }, 'latitude must be a number'],
      ['longitude above 180', { latitude: 0, longitude: 181 }, 'longitude must be between -180 and 180'],
      ['longitude below -180', { latitude: 0, longitude: -180.1 }, 'longitude must be between -180 and 180'],
      ['latitude alone', { latitude: 10 }, 'latitude and longitude must be provided together'],
      ['longitude alone', { longitude: 10, latitude: null }, 'latitude and longitude must be provided together'],
      ['unknown priority', { priority: 'urgent' }, 'priority must be one of: low, medium, high'],
      ['long description', { description: 'd'.repeat(1001) }, 'description must not exceed 1000 characters'],
      ['numeric description', { description: 5 }, 'description must be a string'],
      [
        'long inspection_notes',
        { inspection_notes: 'i'.repeat(2001) },
        'inspection_notes must not exceed 2000 characters',
      ],
      ['capture_types not a list', { capture_types: 'panorama' }, 'capture_types must be an array'],
      [
        '21 capture_types',
        { capture_types: Array(21).fill('panorama') },
        'capture_types must not contain more than 20 items',
      ],
      [
        'unknown capture type',
        { capture_types: ['x_ray'] },
        `capture_types must contain only: ${CAPTURE_TYPES.join(', ')}`,
      ],
      [
        'repeated capture type',
        { capture_types: ['panorama', 'panorama'] },
        'capture_types must not contain duplicates',
      ],
      [
        'unknown frequency',
        { recurring_frequency: 'hourly' },
        'recurring_frequency must be one of: daily, weekly, monthly, yearly, flexible',
      ],
      ['interval 0', { recurring_interval: 0 }, 'recurring_interval must be an integer between 1 and 365'],
      ['interval 366', { recurring_interval: 366 }, 'recurring_interval must be an integer between 1 and 365'],
      ['fractional interval', { recurring_interval: 1.5 }, 'recurring_interval must be an integer between 1 and 365'],
      [
        'interval with flexible',
        { recurring_frequency: 'flexible', recurring_interval: 2 },
        'recurring_interval is not allowed when recurring_frequency is flexible',
      ],
      ['weekdays not a list', { selected_days_of_week: 1 }, 'selected_days_of_week must be an array'],
      [
        '8 weekdays',
        { selected_days_of_week: [0, 1, 2, 3, 4, 5, 6, 0] },
        'selected_days_of_week must not contain more than 7 values',
      ],
      [
        'weekday 7',
        { selected_days_of_week: [7] },
        'selected_days_of_week must contain only integers from 0 (Sunday) to 6 (Saturday)',
      ],
      ['repeated weekday', { selected_days_of_week: [1, 1] }, 'selected_days_of_week must not contain duplicates'],
      ['week_of_month 5', { week_of_month: 5 }, 'week_of_month must be one of: 1, 2, 3, 4, -1'],
      ['week_of_month as text', { week_of_month: '1' }, 'week_of_month must be one of: 1, 2, 3, 4, -1'],
      [
        '6 weeks_of_month',
        { weeks_of_month: [1, 2, 3, 4, -1, 1] },
        'weeks_of_month must not contain more than 5 values',
      ],
      ['weeks_of_month 0', { weeks_of_month: [0] }, 'weeks_of_month must contain only: 1, 2, 3, 4, -1'],
      ['repeated weeks_of_month', { weeks_of_month: [-1, -1] }, 'weeks_of_month must not contain duplicates'],
      ['0 flights', { flights_per_occurrence: 0 }, 'flights_per_occurrence must be an integer between 1 and 10'],
      ['11 flights', { flights_per_occurrence: 11 }, 'flights_per_occurrence must be an integer between 1 and 10'],
      ['unknown field', { color: 'red' }, 'color is not an allowed field'],
    ])('refuses %s with 400 and creates nothing', async (_name, overrides, message) => {
      const before = await t.request('GET', jobsPath(), { token: keys.readKey });
      const res = await post({ ...valid(), ...overrides });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
      const after = await t.request('GET', jobsPath(), { token: keys.readKey });
      expect(after.body.count).toBe(before.body.count);
    });

    it('takes a custom job type of its own workspace, but not another workspace’s nor a deleted one', async () => {
      const mine = await t.request('POST', '/v1/job-types', { token: keys.fullKey, body: { name: 'Dam survey' } });
      const theirs = await t.request('POST', '/v1/job-types', { token: other.fullKey, body: { name: 'Secret' } });
      await create({ type: mine.body.id });
      const refused = await post({ ...valid(), type: theirs.body.id });
      expect(refused.body).toEqual({ message: 'type must match a job type configured in the workspace' });
      await t.request('DELETE', `/v1/job-types/${mine.body.id}`, { token: keys.fullKey });
      expect((await post({ ...valid(), type: mine.body.id })).status).toBe(400);
    });

    it('answers 404 Project not found for a missing, foreign or deleted project', async () => {
      expect404(await post(valid(), 'prj_missing'), 'Project not found');
      const theirs = await createProject(other);
      expect404(await post(valid(), theirs), 'Project not found');
      const gone = await createProject(keys);
      await t.request('DELETE', `/v1/projects/${gone}`, { token: keys.fullKey });
      expect404(await post(valid(), gone), 'Project not found');
    });

    it('refuses a read-only key with 403', async () => {
      const res = await post(valid(), projectId, keys.readKey);
      expect(res).toMatchObject({ status: 403, body: { code_name: 'read_only_access' } });
    });
  });
});
