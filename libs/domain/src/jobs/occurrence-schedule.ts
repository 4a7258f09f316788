/**
 * Expansion of a job's schedule into dated occurrences (docs/api.md, Jobs).
 *
 * The API reference says that a recurring job generates occurrences and that changing the recurring fields
 * regenerates them, but it does not define the recurrence rules. The rules below are this service's
 * reading of the fields; each choice the API reference leaves open is documented where it is made.
 *
 * Pure: no clock, no I/O. Dates are `YYYY-MM-DD` UTC calendar dates, handled internally as integer
 * day numbers (days since 1970-01-01) so that arithmetic is exact and immune to time zones and DST.
 * Input validation (ranges, end_date >= start_date, interval not combined with `flexible`, ...)
 * belongs to the job aggregate; this module only guards against inputs that could make it loop.
 */

export type JobPattern = 'one_time' | 'recurring';
export type RecurringFrequency = 'daily' | 'weekly' | 'monthly' | 'yearly' | 'flexible';

export interface JobSchedule {
  job_pattern: JobPattern;
  start_date: string;
  end_date: string | null;
  recurring_frequency: RecurringFrequency | null;
  recurring_interval: number | null;
  selected_days_of_week: number[] | null;
  week_of_month: number | null;
  weeks_of_month: number[] | null;
  flights_per_occurrence: number | null;
}

export interface Occurrence {
  date: string;
  flights: number;
}

/**
 * Rolling horizon for repeating jobs without an end_date. An open-ended job would otherwise be
 * infinite, so its occurrences are those in a band around an anchor day, the later of start_date
 * and today: from anchor - OPEN_ENDED_HORIZON_DAYS (never before start_date) up to and including
 * anchor + OPEN_ENDED_HORIZON_DAYS. While the job has not started the band is
 * [start_date, start_date + 365]; once it runs, the band moves forward a day every day, so the job
 * always shows a year of planning ahead, and history older than a year drops out. The band is at
 * most 731 days wide, so a daily open-ended job never reaches MAX_OCCURRENCES.
 */
export const OPEN_ENDED_HORIZON_DAYS = 365;

export interface ExpansionOptions {
  /**
   * Today's UTC date (`YYYY-MM-DD`), the anchor of the rolling horizon of open-ended jobs. The
   * caller passes it in (from its clock), which keeps this module pure. Omitted: the band is
   * anchored at start_date, as if the job had not started yet.
   */
  today?: string;
}

/**
 * Hard cap on the occurrences of one job: expansion stops after the first 1000 (chronologically).
 * Bounds storage and event size for pathological schedules such as a daily job over many years.
 */
export const MAX_OCCURRENCES = 1000;

/** flights_per_occurrence is optional; a scheduled occurrence implies at least one flight. */
export const DEFAULT_FLIGHTS_PER_OCCURRENCE = 1;

/** -1 means "the last such weekday of the month" (spec: "last week"). */
const WEEKS_OF_MONTH = [1, 2, 3, 4, -1] as const;

/**
 * Expands a job into its occurrences, sorted by date ascending, without duplicates. Rules:
 *
 * - Window: every occurrence lies in [start_date, end_date] (inclusive). When end_date is null, a
 *   repeating job (daily/weekly/monthly/yearly) uses the rolling band of OPEN_ENDED_HORIZON_DAYS
 *   around max(start_date, today), clipped to start at start_date; a single-occurrence job (below)
 *   keeps its one occurrence on start_date forever. An inverted window (end_date before
 *   start_date, rejected by validation) yields no occurrences at all. The window only filters:
 *   intervals, default weekdays and days of the month are always counted from start_date, so the
 *   band moving never shifts an occurrence.
 * - Cap: at most MAX_OCCURRENCES, the earliest ones.
 * - flights = flights_per_occurrence ?? 1 on every occurrence.
 * - `one_time`: one occurrence on start_date; the recurring fields are ignored (spec: they apply only
 *   to recurring jobs).
 * - `recurring` with frequency null: nothing says how to repeat, so the job is treated as a single
 *   occurrence on start_date.
 * - `flexible`: the job has no fixed dates, so it is represented by a single occurrence on start_date
 *   standing for the whole flexible window; recurring_interval and the day fields are ignored.
 * - interval: recurring_interval, default 1. Values that are not positive integers (rejected by
 *   validation) are read as 1 rather than allowed to stall the expansion.
 * - selected_days_of_week: 0 = Sunday .. 6 = Saturday; values outside that range are ignored, and an
 *   empty list means the same as null (no selection).
 * - `daily`: every interval-th day counted from start_date; with selected weekdays, only the counted
 *   days falling on one of them are kept (the others are dropped, not shifted).
 * - `weekly`: weeks run Sunday to Saturday and are counted from the week containing start_date; in
 *   every interval-th week, each selected weekday (default: start_date's weekday). Days of the first
 *   week that precede start_date are dropped.
 * - `monthly`: every interval-th month counted from start_date's month.
 *   - If week_of_month and/or weeks_of_month are given (their union is used): in each such month, the
 *     Nth occurrence of each selected weekday (default: start_date's weekday), N in 1..4, or -1 for
 *     the last one of the month. Other week numbers are ignored. Days before start_date are dropped.
 *   - Otherwise, start_date's day of the month; selected_days_of_week is then ignored. Months lacking
 *     that day (e.g. the 31st in April, the 30th in February) are skipped rather than clamped, so an
 *     occurrence never lands on a day that the user did not choose.
 * - `yearly`: every interval-th year on start_date's month and day; a job starting on February 29
 *   only occurs in leap years (again skipped, not clamped).
 */
export function expandOccurrences(schedule: JobSchedule, options: ExpansionOptions = {}): Occurrence[] {
  const start = toDayNumber(schedule.start_date);
  const { first, last } = windowOf(schedule, start, options.today === undefined ? start : toDayNumber(options.today));
  const flights = schedule.flights_per_occurrence ?? DEFAULT_FLIGHTS_PER_OCCURRENCE;
  const days = collect(candidateDays(schedule, start, last), first, last);
  return days.map((day) => ({ date: toIsoDate(day), flights }));
}

/** True when the schedule repeats, i.e. can have more than one occurrence. */
export function isRepeating(schedule: Pick<JobSchedule, 'job_pattern' | 'recurring_frequency'>): boolean {
  return (
    schedule.job_pattern === 'recurring' &&
    schedule.recurring_frequency !== null &&
    schedule.recurring_frequency !== 'flexible'
  );
}

/** The days [first, last] occurrences may fall on (see "Window" above). */
function windowOf(schedule: JobSchedule, start: number, today: number): { first: number; last: number } {
  if (schedule.end_date !== null) return { first: start, last: toDayNumber(schedule.end_date) };
  if (!isRepeating(schedule)) return { first: start, last: start };
  const anchor = Math.max(start, today);
  return { first: Math.max(start, anchor - OPEN_ENDED_HORIZON_DAYS), last: anchor + OPEN_ENDED_HORIZON_DAYS };
}

/** Candidate days in ascending order; may include days before `start`, never needs to pass `last`. */
function candidateDays(schedule: JobSchedule, start: number, last: number): Iterable<number> {
  if (schedule.job_pattern === 'one_time') return [start];
  const interval = positiveIntegerOr1(schedule.recurring_interval);
  const weekdays = weekdaySelection(schedule.selected_days_of_week);
  switch (schedule.recurring_frequency) {
    case 'daily':
      return dailyDays(start, last, interval, weekdays);
    case 'weekly':
      return weeklyDays(start, last, interval, weekdays ?? [weekdayOf(start)]);
    case 'monthly': {
      const weeks = weekOfMonthSelection(schedule.week_of_month, schedule.weeks_of_month);
      return weeks === null
        ? monthlyByDayOfMonth(start, last, interval)
        : monthlyByWeekday(start, last, interval, weeks, weekdays ?? [weekdayOf(start)]);
    }
    case 'yearly':
      return yearlyDays(start, last, interval);
    case 'flexible':
    case null:
      return [start];
  }
}

/** Keeps the candidates inside [first, last], stopping at the cap; drops repeats defensively. */
function collect(candidates: Iterable<number>, first: number, last: number): number[] {
  const days: number[] = [];
  for (const day of candidates) {
    if (day > last || days.length >= MAX_OCCURRENCES) break;
    if (day >= first && (days.length === 0 || day > days[days.length - 1])) days.push(day);
  }
  return days;
}

function* dailyDays(start: number, last: number, interval: number, weekdays: number[] | null): Iterable<number> {
  for (let day = start; day <= last; day += interval) {
    if (weekdays === null || weekdays.includes(weekdayOf(day))) yield day;
  }
}

function* weeklyDays(start: number, last: number, interval: number, weekdays: number[]): Iterable<number> {
  for (let sunday = start - weekdayOf(start); sunday <= last; sunday += 7 * interval) {
    for (const weekday of weekdays) yield sunday + weekday;
  }
}

function* monthlyByDayOfMonth(start: number, last: number, interval: number): Iterable<number> {
  const { day } = toCivil(start);
  for (const { year, month } of everyNthMonth(start, last, interval)) {
    if (day <= daysInMonth(year, month)) yield fromCivil(year, month, day);
  }
}

function* monthlyByWeekday(
  start: number,
  last: number,
  interval: number,
  weeks: number[],
  weekdays: number[],
): Iterable<number> {
  for (const { year, month } of everyNthMonth(start, last, interval)) {
    // "4th" and "last" can be the same day, and picks from different weekdays interleave.
    const days = new Set<number>();
    for (const week of weeks) for (const weekday of weekdays) days.add(nthWeekdayOfMonth(year, month, weekday, week));
    yield* [...days].sort((a, b) => a - b);
  }
}

function* yearlyDays(start: number, last: number, interval: number): Iterable<number> {
  const { year, month, day } = toCivil(start);
  for (let y = year; fromCivil(y, 1, 1) <= last; y += interval) {
    if (day <= daysInMonth(y, month)) yield fromCivil(y, month, day);
  }
}

/** Months counted from start's month, while the month begins no later than `last`. */
function* everyNthMonth(start: number, last: number, interval: number): Iterable<{ year: number; month: number }> {
  const origin = toCivil(start);
  for (let index = origin.year * 12 + origin.month - 1; ; index += interval) {
    const year = Math.floor(index / 12);
    const month = (index % 12) + 1;
    if (fromCivil(year, month, 1) > last) return;
    yield { year, month };
  }
}

/** The day number of the `week`-th `weekday` of the month (week -1: the last one). */
function nthWeekdayOfMonth(year: number, month: number, weekday: number, week: number): number {
  if (week === -1) {
    const lastOfMonth = fromCivil(year, month, daysInMonth(year, month));
    return lastOfMonth - mod(weekdayOf(lastOfMonth) - weekday, 7);
  }
  const first = fromCivil(year, month, 1);
  // Every month has at least 28 days, so weeks 1..4 always exist.
  return first + mod(weekday - weekdayOf(first), 7) + 7 * (week - 1);
}

function positiveIntegerOr1(value: number | null): number {
  return value !== null && Number.isInteger(value) && value >= 1 ? value : 1;
}

/** Sorted, unique weekdays in 0..6, or null when nothing usable is selected. */
function weekdaySelection(days: number[] | null): number[] | null {
  const valid = [...new Set(days ?? [])].filter((d) => Number.isInteger(d) && d >= 0 && d <= 6);
  return valid.length === 0 ? null : valid.sort((a, b) => a - b);
}

/** Union of week_of_month and weeks_of_month restricted to 1..4 and -1, or null when empty. */
function weekOfMonthSelection(single: number | null, many: number[] | null): number[] | null {
  const requested = new Set([...(single === null ? [] : [single]), ...(many ?? [])]);
  const valid = WEEKS_OF_MONTH.filter((week) => requested.has(week));
  return valid.length === 0 ? null : valid;
}

// ---- Integer calendar arithmetic (proleptic Gregorian, UTC) ----------------------------------------
// Days-from-civil / civil-from-days after Howard Hinnant's public-domain algorithms: exact integer
// math without Date objects, valid far beyond the years a job can use.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Throws on malformed or impossible dates: reaching here with one is a programming error. */
function toDayNumber(date: string): number {
  const match = ISO_DATE.exec(date);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  if (!match || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`Invalid calendar date: ${date}`);
  }
  return fromCivil(year, month, day);
}

function toIsoDate(dayNumber: number): string {
  const { year, month, day } = toCivil(dayNumber);
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

/** 0 = Sunday .. 6 = Saturday; day 0 (1970-01-01) was a Thursday. */
function weekdayOf(dayNumber: number): number {
  return mod(dayNumber + 4, 7);
}

function fromCivil(year: number, month: number, day: number): number {
  // Years start in March so that the leap day is the last day of the (shifted) year.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function toCivil(dayNumber: number): { year: number; month: number; day: number } {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
