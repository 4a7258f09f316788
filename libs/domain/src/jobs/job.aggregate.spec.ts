import { spec } from '../shared/given-when-then.spec-helper';
import { CreateJobInput, jobDecider, JobCommand, jobOccurrences, jobView, JobFields } from './job.aggregate';
import { JobChanges, JobEvent } from './job.events';
import { ASSIGNMENT_MESSAGES, JOB_MESSAGES, JOB_NOT_FOUND } from './job.values';

const { given } = spec(jobDecider);

/** 2026-01-15 12:00 UTC: start dates back to 2025-07-15 are allowed. */
const NOW = Date.UTC(2026, 0, 15, 12);
const LATER = NOW + 60_000;

const input: CreateJobInput = {
  name: 'Turbine 7 blades',
  type: 'wind_turbine',
  job_pattern: 'recurring',
  start_date: '2026-03-02', // a Monday
  end_date: '2026-04-30',
  recurring_frequency: 'weekly',
  selected_days_of_week: [1],
};
const create = (overrides: Partial<CreateJobInput> = {}): JobCommand => ({
  type: 'CreateJob',
  id: 'job1',
  workspaceId: 'ws1',
  projectId: 'prj1',
  input: { ...input, ...overrides },
  now: NOW,
});
const ref = { id: 'job1', workspace_id: 'ws1', project_id: 'prj1' };
const created: JobEvent = {
  type: 'job.created',
  data: {
    ...ref,
    name: 'Turbine 7 blades',
    description: null,
    type: 'wind_turbine',
    status: 'not_started',
    priority: 'medium',
    job_pattern: 'recurring',
    start_date: '2026-03-02',
    end_date: '2026-04-30',
    latitude: null,
    longitude: null,
    inspection_notes: null,
    capture_types: null,
    external_id: null,
    recurring_frequency: 'weekly',
    recurring_interval: null,
    selected_days_of_week: [1],
    week_of_month: null,
    weeks_of_month: null,
    flights_per_occurrence: null,
    other_status_reason: null,
    created: NOW,
  },
};
const createdWith = (values: Partial<Extract<JobEvent, { type: 'job.created' }>['data']>): JobEvent => ({
  type: 'job.created',
  data: { ...(created.data as Extract<JobEvent, { type: 'job.created' }>['data']), ...values },
});
const update = (changes: JobChanges, now = LATER): JobCommand => ({ type: 'UpdateJob', changes, now });
const updated = (changes: JobChanges): JobEvent => ({ type: 'job.updated', data: { ...ref, changes, updated: LATER } });
const assign = (...pilotIds: string[]): JobCommand => ({ type: 'AssignPilots', pilotIds, now: LATER });
const unassign = (...pilotIds: string[]): JobCommand => ({ type: 'UnassignPilots', pilotIds, now: LATER });
/** Mondays from 2026-03-02 to 2026-04-27. */
const WEEKLY_OCCURRENCES = 9;
const assigned = (pilot_ids: string[], occurrences_per_pilot = WEEKLY_OCCURRENCES): JobEvent => ({
  type: 'job.pilots_assigned',
  data: { ...ref, pilot_ids, occurrences_per_pilot, assigned: LATER },
});
const unassigned = (pilot_ids: string[], occurrences_per_pilot: number): JobEvent => ({
  type: 'job.pilots_unassigned',
  data: { ...ref, pilot_ids, occurrences_per_pilot, unassigned: LATER },
});
const deleted: JobEvent = { type: 'job.deleted', data: { ...ref, deleted: LATER } };

describe('Job aggregate', () => {
  describe('create', () => {
    it('records the job with status not_started and priority medium unless given', () => {
      given().when(create()).then([created]);
      given()
        .when(create({ status: 'planned', priority: 'high' }))
        .then([createdWith({ status: 'planned', priority: 'high' })]);
    });

    it('refuses a start date more than 6 calendar months before today', () => {
      given()
        .when(create({ start_date: '2025-07-15', end_date: null }))
        .then([createdWith({ start_date: '2025-07-15', end_date: null })]);
      given()
        .when(create({ start_date: '2025-07-14' }))
        .thenFails(JOB_MESSAGES.startDateTooOld);
    });

    it('allows the end on the start day, not before it', () => {
      given()
        .when(create({ end_date: '2026-03-02' }))
        .then([createdWith({ end_date: '2026-03-02' })]);
      given()
        .when(create({ end_date: '2026-03-01' }))
        .thenFails('end_date must be on or after start_date');
    });

    it('takes latitude and longitude only together', () => {
      given()
        .when(create({ latitude: 52.1, longitude: 4.3 }))
        .then([createdWith({ latitude: 52.1, longitude: 4.3 })]);
      given()
        .when(create({ latitude: 52.1 }))
        .thenFails('latitude and longitude must be provided together');
      given()
        .when(create({ longitude: 4.3, latitude: null }))
        .thenFails('latitude and longitude must be provided together');
    });

    it('needs a reason for status other and keeps it (write-only)', () => {
      given()
        .when(create({ status: 'other' }))
        .thenFails('other_status_reason is required when status is "other"');
      given()
        .when(create({ status: 'other', other_status_reason: 'Awaiting permit' }))
        .then([createdWith({ status: 'other', other_status_reason: 'Awaiting permit' })]);
      given()
        .when(create({ other_status_reason: 'ignored' }))
        .then([created]);
    });

    it('refuses an interval with the flexible frequency', () => {
      given()
        .when(create({ recurring_frequency: 'flexible', recurring_interval: 2 }))
        .thenFails(JOB_MESSAGES.intervalWithFlexible);
    });

    it('is idempotent for the same id', () => {
      given(created)
        .when(create({ name: 'Other' }))
        .thenNothing();
    });
  });

  describe('update', () => {
    it('records only the supplied fields that change, arrays compared by value', () => {
      given(created)
        .when(
          update({ name: 'Renamed', priority: 'medium', selected_days_of_week: [1], capture_types: ['orthomosaic'] }),
        )
        .then([updated({ name: 'Renamed', capture_types: ['orthomosaic'] })]);
      given(created)
        .when(update({ selected_days_of_week: [1] }))
        .thenNothing();
      given(created).when(update({})).thenNothing();
    });

    it('clears nullable fields with null', () => {
      const located = createdWith({ latitude: 1, longitude: 2, capture_types: ['panorama'] });
      given(located)
        .when(
          update({ latitude: null, longitude: null, end_date: null, capture_types: null, recurring_frequency: null }),
        )
        .then([
          updated({ latitude: null, longitude: null, end_date: null, capture_types: null, recurring_frequency: null }),
        ]);
    });

    it('checks the dates against the stored ones when only one changes', () => {
      given(created)
        .when(update({ end_date: '2026-03-01' }))
        .thenFails('end_date cannot be before start_date');
      given(created)
        .when(update({ start_date: '2026-05-01' }))
        .thenFails('end_date cannot be before start_date');
      given(created)
        .when(update({ start_date: '2026-04-30' }))
        .then([updated({ start_date: '2026-04-30' })]);
      given(created)
        .when(update({ start_date: '2026-06-01', end_date: null }))
        .then([updated({ start_date: '2026-06-01', end_date: null })]);
    });

    it('applies the 6-month rule only to a start date being changed', () => {
      given(created)
        .when(update({ start_date: '2025-07-14' }))
        .thenFails(JOB_MESSAGES.startDateTooOld);
      // Two years later the stored start date is old, but other fields still change, and sending it back is fine.
      const twoYearsLater = Date.UTC(2028, 0, 15);
      given(created)
        .when(update({ name: 'Still running', start_date: '2026-03-02' }, twoYearsLater))
        .then([{ type: 'job.updated', data: { ...ref, changes: { name: 'Still running' }, updated: twoYearsLater } }]);
    });

    it('keeps latitude and longitude paired in the result', () => {
      const located = createdWith({ latitude: 1, longitude: 2 });
      given(located)
        .when(update({ latitude: 5 }))
        .then([updated({ latitude: 5 })]);
      given(located)
        .when(update({ latitude: null }))
        .thenFails('Both latitude and longitude must be provided together');
      given(created)
        .when(update({ longitude: 5 }))
        .thenFails('Both latitude and longitude must be provided together');
      given(created)
        .when(update({ latitude: 5, longitude: 6 }))
        .then([updated({ latitude: 5, longitude: 6 })]);
    });

    it('refuses flexible with a stored interval unless the interval is cleared too', () => {
      const everyTwo = createdWith({ recurring_interval: 2 });
      given(everyTwo)
        .when(update({ recurring_frequency: 'flexible' }))
        .thenFails(JOB_MESSAGES.intervalWithFlexible);
      given(everyTwo)
        .when(update({ recurring_frequency: 'flexible', recurring_interval: null }))
        .then([updated({ recurring_frequency: 'flexible', recurring_interval: null })]);
      given(createdWith({ recurring_frequency: 'flexible' }))
        .when(update({ recurring_interval: 3 }))
        .thenFails(JOB_MESSAGES.intervalWithFlexible);
    });

    it('needs a reason in the same request for status other; leaving other clears it', () => {
      given(created)
        .when(update({ status: 'other' }))
        .thenFails('other_status_reason is required when status is "other"');
      given(created)
        .when(update({ status: 'other', other_status_reason: 'Permit' }))
        .then([updated({ status: 'other', other_status_reason: 'Permit' })]);
      const inOther = updated({ status: 'other', other_status_reason: 'Permit' });
      given(created, inOther)
        .when(update({ other_status_reason: 'New permit' }))
        .then([updated({ other_status_reason: 'New permit' })]);
      given(created, inOther)
        .when(update({ status: 'planned' }))
        .then([updated({ status: 'planned', other_status_reason: null })]);
      given(created)
        .when(update({ other_status_reason: 'not in other' }))
        .thenNothing();
    });

    it('fails for a missing or deleted job', () => {
      given()
        .when(update({ name: 'x' }))
        .thenFails(JOB_NOT_FOUND);
      given(created, deleted)
        .when(update({ name: 'x' }))
        .thenFails(JOB_NOT_FOUND);
    });
  });

  describe('delete', () => {
    it('deletes a live job once', () => {
      given(created).when({ type: 'DeleteJob', now: LATER }).then([deleted]);
      given(created, deleted).when({ type: 'DeleteJob', now: LATER }).thenFails(JOB_NOT_FOUND);
      given().when({ type: 'DeleteJob', now: LATER }).thenFails(JOB_NOT_FOUND);
    });
  });

  describe('pilot assignment', () => {
    it('assigns new pilots to every occurrence and skips the ones already assigned', () => {
      given(created)
        .when(assign('p1', 'p2', 'p1'))
        .then([assigned(['p1', 'p2'])]);
      given(created, assigned(['p1']))
        .when(assign('p1', 'p3'))
        .then([assigned(['p3'])]);
      given(created, assigned(['p1', 'p2']))
        .when(assign('p2', 'p1'))
        .thenNothing();
    });

    it('counts the occurrences of the schedule as it is at the time', () => {
      const daily = updated({ recurring_frequency: 'daily', selected_days_of_week: null, end_date: '2026-03-11' });
      given(created, daily)
        .when(assign('p1'))
        .then([assigned(['p1'], 10)]);
      given(created, updated({ job_pattern: 'one_time' }))
        .when(assign('p1'))
        .then([assigned(['p1'], 1)]);
    });

    it('unassigns only assigned pilots, with the occurrences per pilot at the time', () => {
      given(created, assigned(['p1', 'p2']))
        .when(unassign('p2', 'p9'))
        .then([unassigned(['p2'], WEEKLY_OCCURRENCES)]);
      given(created, assigned(['p1', 'p2']))
        .when(unassign('p1', 'p2'))
        .then([unassigned(['p1', 'p2'], WEEKLY_OCCURRENCES)]);
      given(created, assigned(['p1']), unassigned(['p1'], 9))
        .when(unassign('p1'))
        .thenFails(ASSIGNMENT_MESSAGES.noAssignments);
      given(created).when(unassign('p1')).thenFails('No pilot assignments found for this job');
    });

    it('keeps assignments when the schedule changes: they belong to the job, not to an occurrence', () => {
      given(created, assigned(['p1']), updated({ job_pattern: 'one_time' }))
        .when(unassign('p1'))
        .then([unassigned(['p1'], 1)]);
    });

    it('needs at least one pilot and a live job', () => {
      given(created).when(assign()).thenFails(ASSIGNMENT_MESSAGES.assignPilotsRequired);
      given(created).when(unassign()).thenFails(ASSIGNMENT_MESSAGES.unassignPilotsRequired);
      given(created, deleted).when(assign('p1')).thenFails(JOB_NOT_FOUND);
      given().when(unassign('p1')).thenFails(JOB_NOT_FOUND);
    });
  });

  describe('views', () => {
    it('shows exactly the documented fields of a job (docs/api.md, Jobs), in their order, without the write-only reason', () => {
      const d = (
        createdWith({ status: 'other', other_status_reason: 'x' }) as Extract<JobEvent, { type: 'job.created' }>
      ).data;
      const { id, workspace_id, project_id, created: at, ...values } = d;
      void workspace_id;
      const view = jobView(id, project_id, { ...values, created: at, updated: at } as JobFields);
      expect(Object.keys(view)).toEqual([
        'id', 'name', 'description', 'type', 'status', 'priority', 'job_pattern', 'start_date', 'end_date',
        'latitude', 'longitude', 'project_id', 'inspection_notes', 'capture_types', 'external_id', 'created',
        'updated', 'recurring_frequency', 'recurring_interval', 'selected_days_of_week', 'week_of_month',
        'weeks_of_month', 'flights_per_occurrence',
      ]); // prettier-ignore
    });

    it('lists the occurrences of the job on the date of now', () => {
      const schedule = (created as Extract<JobEvent, { type: 'job.created' }>).data;
      expect(jobOccurrences(schedule, NOW).map((o) => o.date)).toEqual([
        '2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23', '2026-03-30',
        '2026-04-06', '2026-04-13', '2026-04-20', '2026-04-27',
      ]); // prettier-ignore
    });
  });
});
