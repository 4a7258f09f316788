import { NOT_RECURRING } from './job.spec-helper';
import fc from 'fast-check';
import {
  expandOccurrences,
  JobSchedule,
  MAX_OCCURRENCES,
  Occurrence,
  OPEN_ENDED_HORIZON_DAYS,
  RecurringFrequency,
} from './occurrence-schedule';

const schedule = (overrides: Partial<JobSchedule>): JobSchedule => ({
  job_pattern: 'recurring',
  start_date: '2025-01-01',
  end_date: null,
  ...NOT_RECURRING,
  ...overrides,
});

const datesOf = (occurrences: Occurrence[]) => occurrences.map((o) => o.date);

const SUN = 0;
const MON = 1;
const WED = 3;
const FRI = 5;

describe('expandOccurrences — examples', () => {
  it('gives a one-time job a single occurrence on its start date, ignoring recurring fields', () => {
    const result = expandOccurrences(
      schedule({
        job_pattern: 'one_time',
        start_date: '2025-06-10',
        end_date: '2025-12-31',
        recurring_frequency: 'daily',
        selected_days_of_week: [MON],
      }),
    );
    expect(result).toEqual([{ date: '2025-06-10', flights: 1 }]);
  });

  it('carries flights_per_occurrence onto every occurrence', () => {
    const result = expandOccurrences(
      schedule({ recurring_frequency: 'daily', end_date: '2025-01-03', flights_per_occurrence: 4 }),
    );
    expect(result).toEqual([
      { date: '2025-01-01', flights: 4 },
      { date: '2025-01-02', flights: 4 },
      { date: '2025-01-03', flights: 4 },
    ]);
  });

  /** Given a schedule (recurring unless it says otherwise), when it is expanded, then its dates are these. */
  const cases: { title: string; given: Partial<JobSchedule>; dates: string[] }[] = [
    {
      title: 'treats a recurring job without frequency as one occurrence on start_date',
      given: { recurring_frequency: null, recurring_interval: 3, start_date: '2025-02-03', end_date: '2025-09-30' },
      dates: ['2025-02-03'],
    },
    {
      title: 'treats a flexible job as one occurrence on start_date',
      given: {
        recurring_frequency: 'flexible',
        recurring_interval: 3,
        start_date: '2025-02-03',
        end_date: '2025-09-30',
      },
      dates: ['2025-02-03'],
    },
    {
      title: 'expands a weekly Monday + Wednesday job over two months',
      given: {
        recurring_frequency: 'weekly',
        start_date: '2025-03-03',
        end_date: '2025-04-30',
        selected_days_of_week: [WED, MON],
      },
      // prettier-ignore
      dates: [
        '2025-03-03', '2025-03-05', '2025-03-10', '2025-03-12', '2025-03-17', '2025-03-19',
        '2025-03-24', '2025-03-26', '2025-03-31', '2025-04-02', '2025-04-07', '2025-04-09',
        '2025-04-14', '2025-04-16', '2025-04-21', '2025-04-23', '2025-04-28', '2025-04-30',
      ],
    },
    {
      // 2025-03-05 is a Wednesday; its week starts on Sunday 2025-03-02, so Monday 03-03 is skipped.
      title: 'counts biweekly weeks from the Sunday-start week of start_date and never goes before start_date',
      given: {
        recurring_frequency: 'weekly',
        recurring_interval: 2,
        start_date: '2025-03-05',
        end_date: '2025-04-06',
        selected_days_of_week: [MON, FRI],
      },
      dates: ['2025-03-07', '2025-03-17', '2025-03-21', '2025-03-31', '2025-04-04'],
    },
    {
      title: "defaults a weekly job's weekday to start_date's",
      given: { recurring_frequency: 'weekly', start_date: '2025-01-01', end_date: '2025-01-31' },
      dates: ['2025-01-01', '2025-01-08', '2025-01-15', '2025-01-22', '2025-01-29'],
    },
    {
      title: 'expands a monthly "last Friday" job',
      given: {
        recurring_frequency: 'monthly',
        start_date: '2025-01-01',
        end_date: '2025-06-30',
        week_of_month: -1,
        selected_days_of_week: [FRI],
      },
      dates: ['2025-01-31', '2025-02-28', '2025-03-28', '2025-04-25', '2025-05-30', '2025-06-27'],
    },
    {
      // February 2026 has exactly four Sundays: the 4th Sunday is also the last one.
      title: 'merges week_of_month with weeks_of_month and collapses "4th" and "last" when they coincide',
      given: {
        recurring_frequency: 'monthly',
        start_date: '2026-02-01',
        end_date: '2026-03-31',
        week_of_month: 1,
        weeks_of_month: [4, -1],
        selected_days_of_week: [SUN],
      },
      dates: ['2026-02-01', '2026-02-22', '2026-03-01', '2026-03-22', '2026-03-29'],
    },
    {
      // 2025-01-14 is the 2nd Tuesday of January.
      title: 'uses the weekday of start_date when only weeks of the month are given',
      given: { recurring_frequency: 'monthly', start_date: '2025-01-14', end_date: '2025-04-30', weeks_of_month: [2] },
      dates: ['2025-01-14', '2025-02-11', '2025-03-11', '2025-04-08'],
    },
    {
      title: 'skips months that lack the day of the month of start_date',
      given: { recurring_frequency: 'monthly', start_date: '2025-01-31', end_date: '2025-12-31' },
      dates: ['2025-01-31', '2025-03-31', '2025-05-31', '2025-07-31', '2025-08-31', '2025-10-31', '2025-12-31'],
    },
    {
      title: 'puts a yearly February 29 job in leap years only',
      given: { recurring_frequency: 'yearly', start_date: '2024-02-29', end_date: '2033-12-31' },
      dates: ['2024-02-29', '2028-02-29', '2032-02-29'],
    },
    {
      title: 'includes end_date itself when it is an occurrence',
      given: { recurring_frequency: 'yearly', start_date: '2025-01-01', end_date: '2027-01-01' },
      dates: ['2025-01-01', '2026-01-01', '2027-01-01'],
    },
    {
      title: 'applies the yearly interval before the leap-year rule',
      given: { recurring_frequency: 'yearly', recurring_interval: 3, start_date: '2024-02-29', end_date: '2040-12-31' },
      dates: ['2024-02-29', '2036-02-29'],
    },
    {
      // Counted days: Jan 1 (Wed), 3 (Fri), 5, 7, 9, 11, 13 (Mon).
      title: 'keeps only selected weekdays among the days counted by a daily interval',
      given: {
        recurring_frequency: 'daily',
        recurring_interval: 2,
        start_date: '2025-01-01',
        end_date: '2025-01-14',
        selected_days_of_week: [MON, WED, FRI],
      },
      dates: ['2025-01-01', '2025-01-03', '2025-01-13'],
    },
    {
      title: 'yields nothing for an inverted window',
      given: { job_pattern: 'one_time', start_date: '2025-05-02', end_date: '2025-05-01' },
      dates: [],
    },
  ];
  it.each(cases)('$title', ({ given, dates }) => {
    const result = expandOccurrences(schedule(given));

    expect(datesOf(result)).toEqual(dates);
  });

  it('stops an open-ended job at start_date + OPEN_ENDED_HORIZON_DAYS, inclusive', () => {
    const result = expandOccurrences(schedule({ recurring_frequency: 'daily', start_date: '2025-01-01' }));
    expect(result).toHaveLength(OPEN_ENDED_HORIZON_DAYS + 1);
    expect(result[result.length - 1].date).toBe('2026-01-01');
  });

  it('anchors the horizon of a running open-ended job at today: a year back, a year ahead', () => {
    const weekly = schedule({ recurring_frequency: 'weekly', start_date: '2025-01-01' }); // Wednesdays
    const result = datesOf(expandOccurrences(weekly, { today: '2027-03-10' }));
    expect(result[0]).toBe('2026-03-11'); // first Wednesday on or after 2027-03-10 minus 365 days
    expect(result[result.length - 1]).toBe('2028-03-08'); // last Wednesday up to 2027-03-10 plus 365 days
    expect(result).toHaveLength(105);
  });

  it('anchors the horizon at start_date while the job has not started, and clips the band at start_date', () => {
    const daily = schedule({ recurring_frequency: 'daily', start_date: '2026-06-01' });
    expect(expandOccurrences(daily, { today: '2026-01-01' })).toEqual(expandOccurrences(daily));
    const running = datesOf(expandOccurrences(daily, { today: '2026-08-01' }));
    expect(running[0]).toBe('2026-06-01');
    expect(running[running.length - 1]).toBe('2027-08-01');
  });

  it('keeps the single occurrence of one-time and flexible jobs however long ago they started', () => {
    for (const overrides of [{ job_pattern: 'one_time' as const }, { recurring_frequency: 'flexible' as const }]) {
      const result = expandOccurrences(schedule({ ...overrides, start_date: '2020-05-05' }), { today: '2026-11-21' });
      expect(datesOf(result)).toEqual(['2020-05-05']);
    }
  });

  it('ignores today for jobs with an end_date', () => {
    const bounded = schedule({ recurring_frequency: 'weekly', start_date: '2025-01-01', end_date: '2025-03-01' });
    expect(expandOccurrences(bounded, { today: '2030-01-01' })).toEqual(expandOccurrences(bounded));
  });

  it('stops after MAX_OCCURRENCES, keeping the earliest ones', () => {
    const result = expandOccurrences(
      schedule({ recurring_frequency: 'daily', start_date: '2020-01-01', end_date: '2029-12-31' }),
    );
    expect(result).toHaveLength(MAX_OCCURRENCES);
    expect(result[0].date).toBe('2020-01-01');
    expect(result[MAX_OCCURRENCES - 1].date).toBe('2022-09-26');
  });

  it('rejects malformed or impossible dates', () => {
    expect(() => expandOccurrences(schedule({ start_date: '2025-02-29' }))).toThrow(RangeError);
    expect(() => expandOccurrences(schedule({ start_date: '2025-1-01' }))).toThrow(RangeError);
    expect(() => expandOccurrences(schedule({ end_date: 'soon' }))).toThrow(RangeError);
  });
});

// ---- Property-based tests against a brute-force reference ------------------------------------------
// The reference walks every day of the window with Date objects and asks a per-frequency predicate
// whether that day is an occurrence: no stepping, no week/month arithmetic shared with the
// implementation, so a bug would have to be made twice, differently, to go unnoticed.

const MS_PER_DAY = 86_400_000;
const utc = (iso: string) => new Date(`${iso}T00:00:00Z`);
const iso = (date: Date) => date.toISOString().slice(0, 10);
const daysBetween = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / MS_PER_DAY);
const lastDayOfMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();

type DayRule = (day: Date) => boolean;

function referenceRule(s: JobSchedule, start: Date): DayRule {
  const isStart: DayRule = (day) => daysBetween(start, day) === 0;
  if (s.job_pattern === 'one_time') return isStart;
  const interval = s.recurring_interval ?? 1;
  const chosen = s.selected_days_of_week ?? [];
  const weekdays = chosen.length > 0 ? chosen : [start.getUTCDay()];
  const weeks = [...(s.week_of_month === null ? [] : [s.week_of_month]), ...(s.weeks_of_month ?? [])];
  switch (s.recurring_frequency) {
    case 'daily':
      return (day) =>
        daysBetween(start, day) % interval === 0 && (chosen.length === 0 || chosen.includes(day.getUTCDay()));
    case 'weekly':
      return (day) => {
        const weeksSinceStartWeek = Math.floor((daysBetween(start, day) + start.getUTCDay()) / 7);
        return weeksSinceStartWeek % interval === 0 && weekdays.includes(day.getUTCDay());
      };
    case 'monthly':
      return (day) => {
        const months = (day.getUTCFullYear() - start.getUTCFullYear()) * 12 + (day.getUTCMonth() - start.getUTCMonth());
        if (months % interval !== 0) return false;
        if (weeks.length === 0) return day.getUTCDate() === start.getUTCDate();
        const nth = Math.ceil(day.getUTCDate() / 7);
        const isLast = day.getUTCDate() + 7 > lastDayOfMonth(day);
        return weekdays.includes(day.getUTCDay()) && (weeks.includes(nth) || (isLast && weeks.includes(-1)));
      };
    case 'yearly':
      return (day) =>
        day.getUTCMonth() === start.getUTCMonth() &&
        day.getUTCDate() === start.getUTCDate() &&
        (day.getUTCFullYear() - start.getUTCFullYear()) % interval === 0;
    case 'flexible':
    case null:
      return isStart;
  }
}

/** The rolling band of an open-ended repeating job, stated directly in dates (no shared helper). */
function referenceWindow(s: JobSchedule, today: string | undefined): { from: Date; to: Date } {
  const start = utc(s.start_date);
  if (s.end_date !== null) return { from: start, to: utc(s.end_date) };
  const repeats =
    s.job_pattern === 'recurring' && s.recurring_frequency !== null && s.recurring_frequency !== 'flexible';
  if (!repeats) return { from: start, to: start };
  const anchor = today !== undefined && utc(today) > start ? utc(today) : start;
  const back = new Date(anchor.getTime() - OPEN_ENDED_HORIZON_DAYS * MS_PER_DAY);
  return { from: back > start ? back : start, to: new Date(anchor.getTime() + OPEN_ENDED_HORIZON_DAYS * MS_PER_DAY) };
}

function referenceOccurrences(s: JobSchedule, today?: string): Occurrence[] {
  const start = utc(s.start_date);
  const { from, to } = referenceWindow(s, today);
  const rule = referenceRule(s, start);
  const dates: string[] = [];
  for (let t = from.getTime(); t <= to.getTime(); t += MS_PER_DAY) {
    if (rule(new Date(t))) dates.push(iso(new Date(t)));
  }
  return dates.slice(0, MAX_OCCURRENCES).map((date) => ({ date, flights: s.flights_per_occurrence ?? 1 }));
}

const FIRST_DAY = Date.UTC(2020, 0, 1) / MS_PER_DAY;
const LAST_DAY = Date.UTC(2032, 11, 31) / MS_PER_DAY;
const isoFromDay = (day: number) => iso(new Date(day * MS_PER_DAY));

// Month-end days and leap days are over-represented: that is where skipping and "last week" rules bite.
const startDateArb = fc.oneof(
  { arbitrary: fc.integer({ min: FIRST_DAY, max: LAST_DAY }).map(isoFromDay), weight: 3 },
  { arbitrary: fc.constantFrom('2020-02-29', '2024-02-29', '2028-02-29'), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.integer({ min: 2020, max: 2032 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: 28, max: 31 }))
      .map(([year, month, day]) => new Date(Date.UTC(year, month, day)))
      .filter((d) => d.getUTCDate() >= 28)
      .map(iso),
    weight: 2,
  },
);

const endOffsetArb: fc.Arbitrary<number | null> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 120 }), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 1500 }), weight: 3 },
  // Long enough for a daily job to hit MAX_OCCURRENCES.
  { arbitrary: fc.integer({ min: 990, max: 3000 }), weight: 1 },
  { arbitrary: fc.integer({ min: -10, max: -1 }), weight: 1 },
);

const weekOfMonthArb = fc.constantFrom(1, 2, 3, 4, -1);
const weekdayArb = fc.integer({ min: 0, max: 6 });

// Absent and empty selections are weighted up: they switch whole rules (default weekday, day-of-month).
const nullOr = <T>(arb: fc.Arbitrary<T>, nullWeight: number): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary: fc.constant(null), weight: nullWeight }, { arbitrary: arb, weight: 1 });
const selectionArb = <T>(arb: fc.Arbitrary<T>, maxLength: number): fc.Arbitrary<T[] | null> =>
  fc.oneof(
    { arbitrary: fc.constant(null), weight: 2 },
    { arbitrary: fc.constant<T[]>([]), weight: 1 },
    { arbitrary: fc.uniqueArray(arb, { minLength: 1, maxLength }), weight: 3 },
  );

const scheduleArb: fc.Arbitrary<JobSchedule> = fc
  .record({
    job_pattern: fc.constantFrom<JobSchedule['job_pattern']>('recurring', 'recurring', 'recurring', 'one_time'),
    start_date: startDateArb,
    endOffset: endOffsetArb,
    recurring_frequency: fc.constantFrom<RecurringFrequency | null>(
      'daily',
      'weekly',
      'monthly',
      'yearly',
      'flexible',
      null,
    ),
    recurring_interval: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 365 })),
    // Not required unique by the API reference (only "max 7 values"), so repeats are generated too.
    selected_days_of_week: fc.oneof(selectionArb(weekdayArb, 7), fc.array(weekdayArb, { maxLength: 7 })),
    week_of_month: nullOr(weekOfMonthArb, 3),
    weeks_of_month: nullOr(selectionArb(weekOfMonthArb, 5), 1),
    flights_per_occurrence: nullOr(fc.integer({ min: 1, max: 10 }), 1),
  })
  .map(({ endOffset, ...rest }) => ({
    ...rest,
    end_date: endOffset === null ? null : isoFromDay(utc(rest.start_date).getTime() / MS_PER_DAY + endOffset),
  }));

const NUM_RUNS = 300;

describe('expandOccurrences — properties', () => {
  it('yields exactly the days a brute-force day-by-day check accepts (none missing, none extra)', () => {
    fc.assert(
      fc.property(scheduleArb, (s) => {
        expect(expandOccurrences(s)).toEqual(referenceOccurrences(s));
      }),
      // Cheap enough to afford more runs than the others: rare edges (leap days, the cap) need them.
      { numRuns: 3 * NUM_RUNS },
    );
  });

  it('rolls the horizon of open-ended jobs with today, exactly as the day-by-day check does', () => {
    // today anywhere from before start_date to years after it: the band must follow it.
    const todayArb = fc.integer({ min: FIRST_DAY - 400, max: LAST_DAY + 2000 }).map(isoFromDay);
    fc.assert(
      fc.property(scheduleArb, todayArb, (s, today) => {
        expect(expandOccurrences(s, { today })).toEqual(referenceOccurrences(s, today));
      }),
      { numRuns: 2 * NUM_RUNS },
    );
  });

  it('keeps occurrences sorted, unique, inside the window, capped, with the requested flights', () => {
    fc.assert(
      fc.property(scheduleArb, (s) => {
        const result = expandOccurrences(s);
        const dates = datesOf(result);
        const windowEnd = s.end_date ?? isoFromDay(utc(s.start_date).getTime() / MS_PER_DAY + OPEN_ENDED_HORIZON_DAYS);

        // Plain checks first, one expect each: per-element expects would dominate the run time.
        expect(result.length).toBeLessThanOrEqual(MAX_OCCURRENCES);
        expect(dates.filter((date) => iso(utc(date)) !== date)).toEqual([]);
        expect(dates.filter((date) => date < s.start_date || date > windowEnd)).toEqual([]);
        expect(dates.filter((date, i) => i > 0 && date <= dates[i - 1])).toEqual([]);
        expect(new Set(dates).size).toBe(dates.length);
        expect(result.filter((o) => o.flights !== (s.flights_per_occurrence ?? 1))).toEqual([]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('puts every occurrence on an allowed weekday when weekdays constrain the rule', () => {
    const constrained = scheduleArb.filter(
      (s) =>
        s.job_pattern === 'recurring' &&
        (s.recurring_frequency === 'daily' || s.recurring_frequency === 'weekly') &&
        (s.selected_days_of_week ?? []).length > 0,
    );
    fc.assert(
      fc.property(constrained, (s) => {
        const allowed = s.selected_days_of_week ?? [];
        const offDays = expandOccurrences(s).filter(({ date }) => !allowed.includes(utc(date).getUTCDay()));
        expect(offDays).toEqual([]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('yields a single start_date occurrence for one-time, flexible and frequency-less jobs', () => {
    const single = scheduleArb.filter(
      (s) =>
        (s.job_pattern === 'one_time' || s.recurring_frequency === 'flexible' || s.recurring_frequency === null) &&
        (s.end_date === null || s.end_date >= s.start_date),
    );
    fc.assert(
      fc.property(single, (s) => {
        expect(datesOf(expandOccurrences(s))).toEqual([s.start_date]);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
