import { absentFirstDecider, Decider } from '../shared/decider';
import { ignoreUnknownEvent } from '../shared/event-schema';
import { notFound, validationError } from '../shared/domain-error';
import { addMonths, isoDateOf } from '../shared/iso-date';
import { OTHER_STATUS_REASON_REQUIRED, Status } from '../shared/status';
import { JobChanges, JobEvent, JobFieldValues, JobRef } from './job.events';
import { ASSIGNMENT_MESSAGES, CaptureType, JOB_LIMITS, JOB_MESSAGES, JOB_NOT_FOUND, Priority } from './job.values';
import { expandOccurrences, JobPattern, JobSchedule, Occurrence, RecurringFrequency } from './occurrence-schedule';

export const jobStream = (jobId: string) => `job-${jobId}`;

export interface JobFields extends JobFieldValues {
  created: number;
  updated: number;
}

export type JobState =
  | { status: 'absent' }
  | {
      status: 'live';
      id: string;
      workspaceId: string;
      projectId: string;
      fields: JobFields;
      /** Assigned pilot ids, in the order they were assigned. */
      pilots: string[];
    }
  | { status: 'deleted'; id: string; workspaceId: string; projectId: string };

/** POST /projects/{projectId}/jobs: the four required fields, everything else optional. */
export interface CreateJobInput {
  name: string;
  type: string;
  job_pattern: JobPattern;
  start_date: string;
  status?: Status;
  priority?: Priority;
  description?: string | null;
  end_date?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  inspection_notes?: string | null;
  capture_types?: CaptureType[] | null;
  external_id?: string | null;
  other_status_reason?: string | null;
  recurring_frequency?: RecurringFrequency | null;
  recurring_interval?: number | null;
  selected_days_of_week?: number[] | null;
  week_of_month?: number | null;
  weeks_of_month?: number[] | null;
  flights_per_occurrence?: number | null;
}

/**
 * Every command carries `now` (ms, from the clock port): the 6-month rule on start_date and the
 * rolling horizon of occurrences depend on the date, and the domain never reads a clock itself.
 */
export type JobCommand =
  | { type: 'CreateJob'; id: string; workspaceId: string; projectId: string; input: CreateJobInput; now: number }
  | { type: 'UpdateJob'; changes: JobChanges; now: number }
  | { type: 'DeleteJob'; now: number }
  /** pilotIds must already be known to be pilots of the workspace (the application checks). */
  | { type: 'AssignPilots'; pilotIds: string[]; now: number }
  | { type: 'UnassignPilots'; pilotIds: string[]; now: number };

/** The job's occurrences on the date of `now` (the rolling horizon moves with the date). */
export function jobOccurrences(schedule: JobSchedule, now: number): Occurrence[] {
  return expandOccurrences(schedule, { today: isoDateOf(now) });
}

/** Spec 8: start_date "not more than 6 months in the past", counted in calendar months (UTC). */
function assertStartDateRecent(startDate: string, now: number) {
  const earliest = addMonths(isoDateOf(now), -JOB_LIMITS.startDateMonthsInPast);
  if (startDate < earliest) throw validationError(JOB_MESSAGES.startDateTooOld);
}

/**
 * The cross-field rules, on the job as it would be after the command. Create and update word two
 * of them differently (docs/api.md, Validation messages), hence the messages as parameters.
 */
function assertConsistent(job: JobFieldValues, messages: { endDate: string; coordinates: string }) {
  // Dates are YYYY-MM-DD, which order as strings exactly as the days do; jobs may end on the start day.
  if (job.end_date !== null && job.end_date < job.start_date) throw validationError(messages.endDate);
  if ((job.latitude === null) !== (job.longitude === null)) throw validationError(messages.coordinates);
  if (job.recurring_frequency === 'flexible' && job.recurring_interval !== null) {
    throw validationError(JOB_MESSAGES.intervalWithFlexible);
  }
}

const CREATE_MESSAGES = { endDate: JOB_MESSAGES.endDateOnOrAfterStart, coordinates: JOB_MESSAGES.coordinatesTogether };
const UPDATE_MESSAGES = {
  endDate: JOB_MESSAGES.endDateNotBeforeStart,
  coordinates: JOB_MESSAGES.coordinatesTogetherOnUpdate,
};

/** Field values compare by value: arrays (capture types, weekdays, weeks) element by element. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

const unique = (ids: string[]) => [...new Set(ids)];

function decide(command: JobCommand, state: JobState): JobEvent[] {
  if (command.type === 'CreateJob') {
    if (state.status !== 'absent') return []; // same id twice: the retry of a create that already happened
    const i = command.input;
    const status = i.status ?? 'not_started';
    if (status === 'other' && !i.other_status_reason) throw validationError(OTHER_STATUS_REASON_REQUIRED);
    const fields: JobFieldValues = {
      name: i.name,
      description: i.description ?? null,
      type: i.type,
      status,
      priority: i.priority ?? 'medium',
      job_pattern: i.job_pattern,
      start_date: i.start_date,
      end_date: i.end_date ?? null,
      latitude: i.latitude ?? null,
      longitude: i.longitude ?? null,
      inspection_notes: i.inspection_notes ?? null,
      capture_types: i.capture_types ?? null,
      external_id: i.external_id ?? null,
      recurring_frequency: i.recurring_frequency ?? null,
      recurring_interval: i.recurring_interval ?? null,
      selected_days_of_week: i.selected_days_of_week ?? null,
      week_of_month: i.week_of_month ?? null,
      weeks_of_month: i.weeks_of_month ?? null,
      flights_per_occurrence: i.flights_per_occurrence ?? null,
      other_status_reason: status === 'other' ? i.other_status_reason! : null,
    };
    assertStartDateRecent(fields.start_date, command.now);
    assertConsistent(fields, CREATE_MESSAGES);
    return [
      {
        type: 'job.created',
        data: {
          id: command.id,
          workspace_id: command.workspaceId,
          project_id: command.projectId,
          ...fields,
          created: command.now,
        },
      },
    ];
  }
  if (state.status !== 'live') throw notFound(JOB_NOT_FOUND);
  const ref: JobRef = { id: state.id, workspace_id: state.workspaceId, project_id: state.projectId };

  switch (command.type) {
    case 'UpdateJob': {
      const requested = command.changes;
      const current = state.fields;
      if (requested.status === 'other' && !requested.other_status_reason) {
        throw validationError(OTHER_STATUS_REASON_REQUIRED);
      }
      // The age limit applies to a start date being set, not to one a long-running job already has.
      if (requested.start_date !== undefined && requested.start_date !== current.start_date) {
        assertStartDateRecent(requested.start_date, command.now);
      }
      const after: JobFieldValues = { ...current };
      for (const [key, value] of Object.entries(requested)) {
        if (value !== undefined) (after as unknown as Record<string, unknown>)[key] = value;
      }
      // Checked on the result, so changing only one of a pair is checked against the stored other.
      assertConsistent(after, UPDATE_MESSAGES);

      const changes: JobChanges = {};
      for (const [key, value] of Object.entries(requested) as [keyof JobChanges, unknown][]) {
        if (value === undefined || key === 'other_status_reason') continue;
        if (!sameValue(current[key], value)) (changes as Record<string, unknown>)[key] = value;
      }
      // The reason lives only while the status is `other`: set with it, replaced while in it, cleared on leaving.
      const reason = after.status === 'other' ? (requested.other_status_reason ?? current.other_status_reason) : null;
      if (reason !== current.other_status_reason) changes.other_status_reason = reason;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'job.updated', data: { ...ref, changes, updated: command.now } }];
    }
    case 'DeleteJob':
      return [{ type: 'job.deleted', data: { ...ref, deleted: command.now } }];
    case 'AssignPilots': {
      if (command.pilotIds.length === 0) throw validationError(ASSIGNMENT_MESSAGES.assignPilotsRequired);
      const newly = unique(command.pilotIds).filter((id) => !state.pilots.includes(id));
      if (newly.length === 0) return []; // every one already assigned: reported as skipped, nothing recorded
      const occurrences = jobOccurrences(state.fields, command.now).length;
      return [
        {
          type: 'job.pilots_assigned',
          data: { ...ref, pilot_ids: newly, occurrences_per_pilot: occurrences, assigned: command.now },
        },
      ];
    }
    case 'UnassignPilots': {
      if (command.pilotIds.length === 0) throw validationError(ASSIGNMENT_MESSAGES.unassignPilotsRequired);
      const removed = unique(command.pilotIds).filter((id) => state.pilots.includes(id));
      if (removed.length === 0) throw notFound(ASSIGNMENT_MESSAGES.noAssignments);
      const occurrences = jobOccurrences(state.fields, command.now).length;
      return [
        {
          type: 'job.pilots_unassigned',
          data: { ...ref, pilot_ids: removed, occurrences_per_pilot: occurrences, unassigned: command.now },
        },
      ];
    }
  }
}

function evolve(state: JobState, event: JobEvent): JobState {
  switch (event.type) {
    case 'job.created': {
      const { id, workspace_id, project_id, created, ...values } = event.data;
      return {
        status: 'live',
        id,
        workspaceId: workspace_id,
        projectId: project_id,
        fields: { ...values, created, updated: created },
        pilots: [],
      };
    }
    case 'job.updated':
      if (state.status !== 'live') return state;
      return { ...state, fields: { ...state.fields, ...event.data.changes, updated: event.data.updated } };
    case 'job.deleted':
      if (state.status === 'absent') return state;
      return { status: 'deleted', id: state.id, workspaceId: state.workspaceId, projectId: state.projectId };
    case 'job.pilots_assigned':
      if (state.status !== 'live') return state;
      return {
        ...state,
        pilots: [...state.pilots, ...event.data.pilot_ids.filter((id) => !state.pilots.includes(id))],
      };
    case 'job.pilots_unassigned': {
      if (state.status !== 'live') return state;
      const removed = new Set(event.data.pilot_ids);
      return { ...state, pilots: state.pilots.filter((id) => !removed.has(id)) };
    }
    default:
      return ignoreUnknownEvent(state, event);
  }
}

export const jobDecider: Decider<JobState, JobCommand, JobEvent> = absentFirstDecider(evolve, decide, 1);

/** The job as the API returns it (docs/api.md, Jobs, in its field order); shared by the projector and tests. */
export function jobView(id: string, projectId: string, fields: JobFields) {
  return {
    id,
    name: fields.name,
    description: fields.description,
    type: fields.type,
    status: fields.status,
    priority: fields.priority,
    job_pattern: fields.job_pattern,
    start_date: fields.start_date,
    end_date: fields.end_date,
    latitude: fields.latitude,
    longitude: fields.longitude,
    project_id: projectId,
    inspection_notes: fields.inspection_notes,
    capture_types: fields.capture_types,
    external_id: fields.external_id,
    created: fields.created,
    updated: fields.updated,
    recurring_frequency: fields.recurring_frequency,
    recurring_interval: fields.recurring_interval,
    selected_days_of_week: fields.selected_days_of_week,
    week_of_month: fields.week_of_month,
    weeks_of_month: fields.weeks_of_month,
    flights_per_occurrence: fields.flights_per_occurrence,
  };
}
export type JobView = ReturnType<typeof jobView>;
