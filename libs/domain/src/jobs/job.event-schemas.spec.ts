import { eventSchemas } from '../event-schemas';
import { jobDecider } from './job.aggregate';
import { JobPilotsUnassignedV1, upcastJobPilotsUnassignedV1 } from './job.event-schemas';

const ref = { id: 'job_1', workspace_id: 'ws_1', project_id: 'prj_1' };
const v1 = (pilot_ids: string[], assignments_removed: number): JobPilotsUnassignedV1 => ({
  ...ref,
  pilot_ids,
  assignments_removed,
  unassigned: 42,
});

describe('job.pilots_unassigned v1 -> v2', () => {
  it('turns the recorded product back into the occurrences per pilot', () => {
    expect(upcastJobPilotsUnassignedV1(v1(['p1', 'p2'], 18))).toEqual({
      ...ref,
      pilot_ids: ['p1', 'p2'],
      occurrences_per_pilot: 9,
      unassigned: 42,
    });
    expect(upcastJobPilotsUnassignedV1(v1(['p1'], 1))).toEqual({
      ...ref,
      pilot_ids: ['p1'],
      occurrences_per_pilot: 1,
      unassigned: 42,
    });
    expect(upcastJobPilotsUnassignedV1(v1(['p1', 'p2', 'p3'], 0))).toMatchObject({ occurrences_per_pilot: 0 });
  });

  it('reads an empty pilot list as 0 occurrences instead of dividing by zero', () => {
    expect(upcastJobPilotsUnassignedV1(v1([], 0))).toMatchObject({ pilot_ids: [], occurrences_per_pilot: 0 });
  });

  it('keeps no trace of the v1 field and leaves the recorded data alone', () => {
    const recorded = v1(['p1'], 5);
    const upcast = upcastJobPilotsUnassignedV1(recorded) as Record<string, unknown>;
    expect(upcast).not.toHaveProperty('assignments_removed');
    expect(recorded.assignments_removed).toBe(5);
  });

  it('is what the registry applies to a stored v1 event; v2 is written and passes through', () => {
    expect(eventSchemas.currentVersion('job.pilots_unassigned')).toBe(2);
    const stored = { type: 'job.pilots_unassigned', schemaVersion: 1, data: v1(['p1', 'p2'], 6) };
    expect(eventSchemas.upcast(stored)).toEqual({
      type: 'job.pilots_unassigned',
      schemaVersion: 2,
      data: { ...ref, pilot_ids: ['p1', 'p2'], occurrences_per_pilot: 3, unassigned: 42 },
    });
    const current = {
      type: 'job.pilots_unassigned',
      schemaVersion: 2,
      data: { ...ref, pilot_ids: ['p1'], occurrences_per_pilot: 3, unassigned: 1 },
    };
    expect(eventSchemas.upcast(current)).toBe(current);
  });

  it('an upcast v1 event folds like the v2 one: the pilots are unassigned', () => {
    const created = jobDecider.decide(
      {
        type: 'CreateJob',
        id: 'job_1',
        workspaceId: 'ws_1',
        projectId: 'prj_1',
        input: { name: 'J', type: 'wind_turbine', job_pattern: 'one_time', start_date: '2026-03-02' },
        now: Date.UTC(2026, 2, 1),
      },
      jobDecider.initialState(),
    );
    const assigned = {
      type: 'job.pilots_assigned' as const,
      data: { ...ref, pilot_ids: ['p1', 'p2'], occurrences_per_pilot: 1, assigned: 2 },
    };
    const unassigned = eventSchemas.upcast({ type: 'job.pilots_unassigned', schemaVersion: 1, data: v1(['p1'], 1) });
    const state = [...created, assigned, unassigned].reduce(
      jobDecider.evolve as (s: unknown, e: unknown) => unknown,
      jobDecider.initialState(),
    );
    expect(state).toMatchObject({ status: 'live', pilots: ['p2'] });
  });
});
