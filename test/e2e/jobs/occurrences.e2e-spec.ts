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
  });
});
