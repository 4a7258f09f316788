import { HttpResult, TestApp } from '../support/test-app';

/**
 * Jobs, occurrences and pilot assignments (docs/api.md, Jobs, 3.4, 4.2, 7, 8) over real HTTP.
 * Dates are relative to today: the 6-month rule on start_date and the rolling horizon of
 * occurrences both depend on the date the service runs on.
 */

const STATUS_MESSAGE =
  'status must be one of: draft, not_started, planned, in_progress, completed, on_hold, weather_delayed, technical_issues, cancelled, aborted, other';
const CAPTURE_TYPES = [
  'drone_inspection', 'thermal_inspection', 'video_capture', '3d_mapping', 'lidar_scan',
  'orthomosaic', 'ground_smartphone', 'ground_360', 'panorama',
]; // prettier-ignore

const DAY = 86_400_000;
const toDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY;
const fromDay = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
const today = () => new Date().toISOString().slice(0, 10);
const plusDays = (iso: string, days: number) => fromDay(toDay(iso) + days);
const weekdayOf = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay();
const nextWeekday = (iso: string, weekday: number) => plusDays(iso, (weekday - weekdayOf(iso) + 7) % 7);
/** Every `step`-th day from `from` through `to`, inclusive. */
const everyNthDay = (from: string, to: string, step: number) => {
  const days: string[] = [];
  for (let d = toDay(from); d <= toDay(to); d += step) days.push(fromDay(d));
  return days;
};

type Keys = Awaited<ReturnType<TestApp['provision']>>;

describe('Jobs (docs/api.md, Jobs) over HTTP', () => {
  let t: TestApp;
  let keys: Keys;
  let other: Keys;
  let projectId: string;
  let pilotA: string;
  let pilotB: string;
  let pilotC: string;
  let opsLead: string;
  let foreignPilot: string;
  const start = plusDays(today(), 30);
  const valid = () => ({ name: 'Blade inspection', type: 'wind_turbine', job_pattern: 'one_time', start_date: start });

  // The tests are about jobs, not rate limits: room for the bursts below whatever the defaults.
  beforeAll(async () => {
    t = await TestApp.start({ RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_SECOND: '1000000' });
    keys = await t.provision();
    other = await t.provision({ name: 'Other' });
    projectId = await createProject(keys);
    const member = async (ws: Keys, email: string, role: string) => {
      const res = await t.admin('POST', `/workspaces/${ws.workspaceId}/members`, {
        email,
        role,
        first_name: email.split('@')[0],
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    pilotA = await member(keys, 'ana@example.com', 'pilot');
    pilotB = await member(keys, 'ben@example.com', 'pilot');
    pilotC = await member(keys, 'cleo@example.com', 'pilot');
    opsLead = await member(keys, 'ops@example.com', 'ops_lead');
    foreignPilot = await member(other, 'far@example.com', 'pilot');
  });
  afterAll(() => t.stop());

  async function createProject(ws: Keys) {
    const res = await t.request('POST', '/v1/projects', {
      token: ws.fullKey,
      body: { name: 'Wind farm', description: 'North site', status: 'planned', start_date: today() },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  const jobsPath = (pid = projectId) => `/v1/projects/${pid}/jobs`;
  const post = (body: unknown, pid = projectId, token = keys.fullKey) =>
    t.request('POST', jobsPath(pid), { token, body });
  const get = (id: string, pid = projectId, token = keys.fullKey) =>
    t.request('GET', `${jobsPath(pid)}/${id}`, { token });
  const patch = (id: string, body: unknown, pid = projectId) =>
    t.request('PATCH', `${jobsPath(pid)}/${id}`, { token: keys.fullKey, body });
  const assign = (id: string, body: unknown, pid = projectId) =>
    t.request('POST', `${jobsPath(pid)}/${id}/assign`, { token: keys.fullKey, body });
  const unassign = (id: string, body: unknown, pid = projectId) =>
    t.request('POST', `${jobsPath(pid)}/${id}/unassign`, { token: keys.fullKey, body });
  const occurrences = (id: string, query = '', pid = projectId) =>
    t.request('GET', `${jobsPath(pid)}/${id}/occurrences${query}`, { token: keys.readKey });
  const create = async (overrides: object = {}, pid = projectId, token = keys.fullKey) => {
    const res = await post({ ...valid(), ...overrides }, pid, token);
    expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: { id: expect.any(String) } });
    return res.body.id as string;
  };
  const allOccurrences = async (id: string) => {
    const items: { date: string; flights: number; assigned_pilot_ids: string[] }[] = [];
    let cursor: string | null = null;
    do {
      const res = await occurrences(id, cursor ? `?cursor=${cursor}` : '');
      expect(res.status).toBe(200);
      items.push(...res.body.occurrences);
      cursor = res.body.cursor;
    } while (cursor);
    return items;
  };
  const expect404 = (res: { status: number; body: unknown }, message: string) =>
    expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message } });

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
        recurring_frequency: null,
        recurring_interval: null,
        selected_days_of_week: null,
        week_of_month: null,
        weeks_of_month: null,
        flights_per_occurrence: null,
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

    it.each<[string, object, string]>([
      ['missing name', { name: undefined }, 'name is required'],
      ['null name', { name: null }, 'name is required'],
      ['empty name', { name: '' }, 'name must be between 1 and 100 characters'],
      ['long name', { name: 'n'.repeat(101) }, 'name must be between 1 and 100 characters'],
      ['numeric name', { name: 7 }, 'name must be a string'],
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
      ['unknown status', { status: 'done' }, STATUS_MESSAGE],
      ['other without reason', { status: 'other' }, 'other_status_reason is required when status is "other"'],
      [
        'long reason',
        { status: 'other', other_status_reason: 'r'.repeat(201) },
        'other_status_reason must be between 1 and 200 characters',
      ],
      ['long external_id', { external_id: 'e'.repeat(256) }, 'external_id must not exceed 255 characters'],
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

  describe('GET /projects/{projectId}/jobs', () => {
    it('pages 50 at a time in creation order, only this project’s jobs, with project_id', async () => {
      const pid = await createProject(keys);
      const ids: string[] = [];
      for (let i = 0; i < 60; i++) ids.push(await create({ name: `J${i}` }, pid));
      await create({}, projectId); // another project's job is not listed
      const first = await t.request('GET', jobsPath(pid), { token: keys.readKey });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ count: 50, project_id: pid, cursor: expect.any(String) });
      expect(Object.keys(first.body).sort()).toEqual(['count', 'cursor', 'jobs', 'project_id']);
      const second = await t.request('GET', `${jobsPath(pid)}?cursor=${first.body.cursor}`, { token: keys.readKey });
      expect(second.body).toMatchObject({ count: 10, cursor: null, project_id: pid });
      const listed = [...first.body.jobs, ...second.body.jobs];
      expect(listed.map((j: { id: string }) => j.id)).toEqual(ids);
      expect(listed[0]).toEqual((await get(ids[0], pid)).body);
    });

    it('answers 404 for a missing or foreign project and 400 for a bad cursor', async () => {
      expect404(await t.request('GET', jobsPath('prj_missing'), { token: keys.readKey }), 'Project not found');
      const theirs = await createProject(other);
      expect404(await t.request('GET', jobsPath(theirs), { token: keys.readKey }), 'Project not found');
      const bad = await t.request('GET', `${jobsPath()}?cursor=nonsense!`, { token: keys.readKey });
      expect({ status: bad.status, body: bad.body }).toEqual({ status: 400, body: { message: 'cursor is invalid' } });
    });
  });

  describe('GET /projects/{projectId}/jobs/{jobId}', () => {
    it('answers 404 Job not found for a missing job, another project’s job and another workspace’s job', async () => {
      expect404(await get('job_missing'), 'Job not found');
      const sibling = await createProject(keys);
      const elsewhere = await create({}, sibling);
      expect404(await get(elsewhere), 'Job not found');
      expect((await get(elsewhere, sibling)).status).toBe(200);
      const theirProject = await createProject(other);
      const theirs = await create({}, theirProject, other.fullKey);
      expect404(await get(theirs), 'Job not found');
      expect404(await get(theirs, theirProject), 'Project not found');
    });
  });

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
        recurring_frequency: null,
        recurring_interval: null,
        selected_days_of_week: null,
        week_of_month: null,
        weeks_of_month: null,
        flights_per_occurrence: null,
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

    it.each<[string, object, string]>([
      ['empty name', { name: '' }, 'name must be between 1 and 100 characters'],
      ['null name', { name: null }, 'name must be a string'],
      ['unknown status', { status: 'finished' }, STATUS_MESSAGE],
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
      ['other without reason', { status: 'other' }, 'other_status_reason is required when status is "other"'],
      ['unknown type', { type: 'teleportation' }, 'type must match a job type configured in the workspace'],
      ['null type', { type: null }, 'type must be a string'],
      ['unknown job_pattern', { job_pattern: 'sometimes' }, 'job_pattern must be one_time or recurring'],
      ['null description', { description: null }, 'description must be a string'],
      ['null inspection_notes', { inspection_notes: null }, 'inspection_notes must be a string'],
      ['long external_id', { external_id: 'e'.repeat(256) }, 'external_id must not exceed 255 characters'],
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

      // Every PATCH is one job.updated event carrying exactly its change (none lost, none merged away)...
      const history: { type: string; change: { changes: Record<string, unknown> } }[] = [];
      let cursor: string | null = null;
      do {
        const page: HttpResult = await t.request(
          'GET',
          `${jobsPath()}/${id}/history${cursor ? `?cursor=${cursor}` : ''}`,
          {
            token: keys.readKey,
          },
        );
        expect(page.status).toBe(200);
        history.push(...page.body.history);
        cursor = page.body.cursor;
      } while (cursor);
      const updates = history.filter((e) => e.type === 'job.updated').map((e) => e.change.changes);
      const key = (p: Record<string, unknown>) => JSON.stringify(p);
      expect(updates.map(key).sort()).toEqual(patches.map(key).sort());

      // ...and the job shows, for every field, the last of its changes in the recorded order.
      const expected: Record<string, unknown> = {};
      for (const change of updates) Object.assign(expected, change);
      expect((await get(id)).body).toMatchObject(expected);
    });
  });

  describe('DELETE /projects/{projectId}/jobs/{jobId}', () => {
    it('answers 204 with an empty body; the job and its occurrences are gone', async () => {
      const id = await create();
      const res = await t.request('DELETE', `${jobsPath()}/${id}`, { token: keys.fullKey });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect404(await get(id), 'Job not found');
      expect404(await occurrences(id), 'Job not found');
      expect404(await t.request('DELETE', `${jobsPath()}/${id}`, { token: keys.fullKey }), 'Job not found');
    });

    it('answers 404 for another workspace’s job and leaves it alone', async () => {
      const theirProject = await createProject(other);
      const theirs = await create({}, theirProject, other.fullKey);
      expect404(await t.request('DELETE', `${jobsPath()}/${theirs}`, { token: keys.fullKey }), 'Job not found');
      expect404(
        await t.request('DELETE', `${jobsPath(theirProject)}/${theirs}`, { token: keys.fullKey }),
        'Project not found',
      );
      expect((await get(theirs, theirProject, other.fullKey)).status).toBe(200);
    });
  });

  describe('occurrences and pilot assignment', () => {
    const monday = () => nextWeekday(plusDays(today(), 14), 1);

    it('a weekly job over two months: right dates, assign, re-assign (skipped), unassign, regenerate keeping pilots', async () => {
      const first = monday();
      const end = plusDays(first, 60);
      const id = await create({
        job_pattern: 'recurring',
        start_date: first,
        end_date: end,
        recurring_frequency: 'weekly',
        selected_days_of_week: [1],
      });
      const mondays = everyNthDay(first, end, 7);
      expect(mondays).toHaveLength(9);
      const initial = await occurrences(id);
      expect(initial.status).toBe(200);
      expect(initial.body).toEqual({
        occurrences: mondays.map((date) => ({ date, flights: 1, assigned_pilot_ids: [] })),
        count: 9,
        cursor: null,
        job_id: id,
        project_id: projectId,
      });

      const two = await assign(id, { pilots: [pilotA, pilotB] });
      expect({ status: two.status, body: two.body }).toEqual({
        status: 200,
        body: {
          message: 'Pilots assigned successfully',
          results: { successful: 18, skipped: 0, failed: 0 },
          pilots_assigned: [pilotA, pilotB],
          pilots_skipped: [],
          occurrences_per_pilot: 9,
        },
      });

      const again = await assign(id, { pilots: [pilotA] });
      expect(again.body).toEqual({
        message: 'Pilots assigned successfully',
        results: { successful: 0, skipped: 9, failed: 0 },
        pilots_assigned: [],
        pilots_skipped: [pilotA],
        occurrences_per_pilot: 9,
      });

      const mixed = await assign(id, { pilots: [pilotB, pilotC, pilotC] });
      expect(mixed.body).toMatchObject({
        results: { successful: 9, skipped: 9, failed: 0 },
        pilots_assigned: [pilotC],
        pilots_skipped: [pilotB],
      });

      const removed = await unassign(id, { pilots: [pilotC] });
      expect({ status: removed.status, body: removed.body }).toEqual({
        status: 200,
        body: { message: 'Pilots unassigned successfully', pilots_removed: [pilotC], assignments_removed: 9 },
      });
      expect((await occurrences(id)).body.occurrences).toEqual(
        mondays.map((date) => ({ date, flights: 1, assigned_pilot_ids: [pilotA, pilotB] })),
      );

      // A new pattern regenerates the occurrences; the assignments belong to the job and stay.
      expect((await patch(id, { selected_days_of_week: [1, 4], flights_per_occurrence: 2 })).status).toBe(200);
      const twiceWeekly = [...mondays, ...everyNthDay(plusDays(first, 3), end, 7)].sort();
      expect(await allOccurrences(id)).toEqual(
        twiceWeekly.map((date) => ({ date, flights: 2, assigned_pilot_ids: [pilotA, pilotB] })),
      );
      expect((await patch(id, { job_pattern: 'one_time' })).status).toBe(200);
      expect((await occurrences(id)).body.occurrences).toEqual([
        { date: first, flights: 2, assigned_pilot_ids: [pilotA, pilotB] },
      ]);
      const fromOne = await unassign(id, { pilots: [pilotA, pilotC] });
      expect(fromOne.body).toEqual({
        message: 'Pilots unassigned successfully',
        pilots_removed: [pilotA],
        assignments_removed: 1,
      });
    });

    it('pages occurrences 50 at a time by date with a cursor', async () => {
      const id = await create({
        job_pattern: 'recurring',
        start_date: start,
        end_date: plusDays(start, 120),
        recurring_frequency: 'daily',
      });
      const first = await occurrences(id);
      expect(first.body).toMatchObject({ count: 50, cursor: expect.any(String) });
      const second = await occurrences(id, `?cursor=${first.body.cursor}`);
      const third = await occurrences(id, `?cursor=${second.body.cursor}`);
      expect([first.body.count, second.body.count, third.body.count]).toEqual([50, 50, 21]);
      expect(third.body.cursor).toBeNull();
      const dates = [first, second, third].flatMap((r) => r.body.occurrences.map((o: { date: string }) => o.date));
      expect(dates).toEqual(everyNthDay(start, plusDays(start, 120), 1));
      const bad = await occurrences(id, '?cursor=%%%');
      expect(bad.status).toBe(400);
    });

    it('rolls the horizon of an open-ended job: occurrences up to a year after its start', async () => {
      const id = await create({ job_pattern: 'recurring', start_date: monday(), recurring_frequency: 'weekly' });
      const dates = (await allOccurrences(id)).map((o) => o.date);
      expect(dates).toEqual(everyNthDay(monday(), plusDays(monday(), 365), 7));
    });

    it('answers 404 on occurrences of a missing job or project', async () => {
      expect404(await occurrences('job_missing'), 'Job not found');
      expect404(await occurrences('job_missing', '', 'prj_missing'), 'Project not found');
    });

    describe('assign errors', () => {
      let id: string;
      beforeAll(async () => {
        id = await create({ job_pattern: 'recurring', recurring_frequency: 'daily', end_date: plusDays(start, 4) });
      });

      it.each<[string, object]>([
        ['missing pilots', {}],
        ['null pilots', { pilots: null }],
        ['empty pilots', { pilots: [] }],
        ['pilots not a list', { pilots: pilotA }],
      ])('refuses %s with 400 (assign and unassign word it differently)', async (_name, body) => {
        expect(await assign(id, body)).toMatchObject({
          status: 400,
          body: { message: 'pilots array is required and must not be empty' },
        });
        expect(await unassign(id, body)).toMatchObject({
          status: 400,
          body: { message: 'pilots array is required and must contain at least one pilot ID' },
        });
      });

      it('refuses ids that are not strings, and more than 100 ids', async () => {
        for (const send of [assign, unassign]) {
          expect((await send(id, { pilots: [42] })).body).toEqual({
            message: 'pilots must contain only pilot IDs (non-empty strings)',
          });
          expect((await send(id, { pilots: [''] })).body).toEqual({
            message: 'pilots must contain only pilot IDs (non-empty strings)',
          });
          const many = Array.from({ length: 101 }, (_, i) => `usr_${i}`);
          expect((await send(id, { pilots: many })).body).toEqual({
            message: 'pilots must not contain more than 100 pilot IDs',
          });
        }
      });

      it('answers 404 One or more pilots not found for unknown ids, non-pilots and other workspaces’ pilots, assigning nobody', async () => {
        for (const stranger of ['usr_unknown', opsLead, foreignPilot]) {
          expect404(await assign(id, { pilots: [pilotA, stranger] }), 'One or more pilots not found');
        }
        expect((await occurrences(id)).body.occurrences[0].assigned_pilot_ids).toEqual([]);
      });

      it('answers 404 Job not found before looking at the pilots, and Project not found before that', async () => {
        expect404(await assign('job_missing', { pilots: ['usr_unknown'] }), 'Job not found');
        expect404(await unassign('job_missing', { pilots: [pilotA] }), 'Job not found');
        expect404(await assign(id, { pilots: [pilotA] }, 'prj_missing'), 'Project not found');
      });

      it('answers 404 No pilot assignments found for this job when none of the pilots is assigned', async () => {
        expect404(await unassign(id, { pilots: [pilotA] }), 'No pilot assignments found for this job');
        expect404(await unassign(id, { pilots: ['usr_unknown'] }), 'No pilot assignments found for this job');
      });

      it('refuses a read-only key', async () => {
        const res = await t.request('POST', `${jobsPath()}/${id}/assign`, {
          token: keys.readKey,
          body: { pilots: [pilotA] },
        });
        expect(res).toMatchObject({ status: 403, body: { code_name: 'read_only_access' } });
      });
    });

    it('stays consistent under concurrent assigns and unassigns, without a 5xx', async () => {
      const id = await create({ job_pattern: 'recurring', recurring_frequency: 'daily', end_date: plusDays(start, 9) });
      const pilots = [pilotA, pilotB, pilotC];
      const requests = Array.from({ length: 60 }, (_, i) => {
        const subset = pilots.filter((_p, j) => (i + j) % 2 === 0 || j === i % 3);
        return i % 2 === 0
          ? assign(id, { pilots: subset }).then((res) => ({ kind: 'assign' as const, res }))
          : unassign(id, { pilots: subset }).then((res) => ({ kind: 'unassign' as const, res }));
      });
      const outcomes = await Promise.all(requests);
      for (const { kind, res } of outcomes) {
        if (kind === 'assign') expect(res.status).toBe(200);
        else expect([200, 404]).toContain(res.status);
        if (res.status === 404) expect(res.body).toEqual({ message: 'No pilot assignments found for this job' });
      }
      // Serially, each pilot's assignments and removals alternate: added - removed is 1 if assigned now, else 0.
      const final = (await occurrences(id)).body.occurrences[0].assigned_pilot_ids as string[];
      for (const pilot of pilots) {
        const added = outcomes.filter((o) => o.kind === 'assign' && o.res.body.pilots_assigned.includes(pilot)).length;
        const removed = outcomes.filter(
          (o) => o.res.status === 200 && o.kind === 'unassign' && o.res.body.pilots_removed.includes(pilot),
        ).length;
        expect(added - removed).toBe(final.includes(pilot) ? 1 : 0);
      }
      for (const { kind, res } of outcomes) {
        if (kind === 'assign') {
          expect(res.body.occurrences_per_pilot).toBe(10);
          expect(res.body.results.successful + res.body.results.skipped).toBe(
            10 * new Set([...res.body.pilots_assigned, ...res.body.pilots_skipped]).size,
          );
        } else if (res.status === 200) {
          expect(res.body.assignments_removed).toBe(10 * res.body.pilots_removed.length);
        }
      }
    });
  });

  describe('deleting a project', () => {
    const events = async (ws: Keys, type: string) => {
      const all: { change: { id: string; project_id: string } }[] = [];
      let cursor: string | null = null;
      do {
        const res: HttpResult = await t.request('GET', `/v1/events?type=${type}${cursor ? `&cursor=${cursor}` : ''}`, {
          token: ws.readKey,
        });
        expect(res.status).toBe(200);
        all.push(...res.body.events);
        cursor = res.body.cursor;
      } while (cursor);
      return all;
    };

    it('deletes its jobs, their occurrences and assignments, recording job.deleted for each', async () => {
      const pid = await createProject(keys);
      const a = await create(
        { job_pattern: 'recurring', recurring_frequency: 'weekly', end_date: plusDays(start, 30) },
        pid,
      );
      const b = await create({}, pid);
      const keep = await create({}); // a job of another project stays
      await assign(a, { pilots: [pilotA] }, pid);
      const res = await t.request('DELETE', `/v1/projects/${pid}`, { token: keys.fullKey });
      expect(res.status).toBe(204);
      expect404(await get(a, pid), 'Project not found');
      expect404(await occurrences(a, '', pid), 'Project not found');
      expect((await get(keep)).status).toBe(200);
      const deleted = (await events(keys, 'job.deleted'))
        .filter((e) => e.change.project_id === pid)
        .map((e) => e.change.id);
      expect(deleted.sort()).toEqual([a, b].sort());
      const history = await t.request('GET', `/v1/projects/${pid}/jobs/${a}/history`, { token: keys.readKey });
      expect(history.body.history.map((e: { type: string }) => e.type)).toEqual([
        'job.created',
        'job.pilots_assigned',
        'job.deleted',
      ]);
    });

    it('leaves no job behind when jobs are created while the project is being deleted', async () => {
      const pid = await createProject(keys);
      await Promise.all(Array.from({ length: 5 }, () => create({}, pid)));
      const racing = Array.from({ length: 30 }, () => post(valid(), pid));
      const deletion = t.request('DELETE', `/v1/projects/${pid}`, { token: keys.fullKey });
      const results = await Promise.all([...racing, deletion]);
      expect((await deletion).status).toBe(204);
      for (const r of results.slice(0, 30)) expect([201, 404]).toContain(r.status);
      const created = (await events(keys, 'job.created'))
        .filter((e) => e.change.project_id === pid)
        .map((e) => e.change.id);
      const deleted = (await events(keys, 'job.deleted'))
        .filter((e) => e.change.project_id === pid)
        .map((e) => e.change.id);
      expect(created.length).toBeGreaterThanOrEqual(5);
      expect(deleted.sort()).toEqual(created.sort());
    });
  });
});
