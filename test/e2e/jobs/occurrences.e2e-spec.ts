import {
  plusDays,
  everyNthDay,
  start,
  monday,
  useJobsApp,
  occurrences,
  create,
  allOccurrences,
  expect404,
  t,
  keys,
  projectId,
  pilotA,
  pilotB,
  pilotC,
  opsLead,
  foreignPilot,
  jobsPath,
  patch,
  assign,
  unassign,
} from './jobs-fixture';

describe('Jobs (docs/api.md, Jobs) over HTTP', () => {
  useJobsApp();

  describe('occurrences and pilot assignment', () => {
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
});
