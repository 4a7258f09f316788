import type {
  AttemptCount,
  DeadLetter,
  ProjectionStatus,
  ProjectionStatusReport,
  RebuildProgress,
} from '@app/application';
import { ChartInput, chartView, ChartView } from '../dashboard/dashboard-charts';
import { timeView } from '../dashboard/dashboard-view-data';
import type { LagSample } from './projection-lag-sampler';

/*
 * What the console's operations screens show, computed from the application's answers (the
 * projection status, the dead letters, the audit feed, the delivery overview): the pages and the
 * JSON their script polls share these, so a reload and a live update say the same.
 */

export type ProjectionState = 'ok' | 'rebuilding' | 'degraded' | 'behind';

export const STATE_TEXT: Record<ProjectionState, string> = {
  ok: 'OK',
  rebuilding: 'Rebuilding',
  degraded: 'Degraded (dead letters)',
  behind: 'Behind',
};

export interface ProjectionRow {
  name: string;
  checkpoint: number;
  head: number;
  lagText: string;
  state: ProjectionState;
  stateText: string;
  deadLetters: number;
  /** The rebuild running, queued or last run, in words, with its share done (0 to 100); null when none. */
  rebuild: { state: RebuildProgress['state']; text: string; percent: number } | null;
}

const number = (n: number) => n.toLocaleString('en');

/** A rebuild's progress in words: events done, position of head, events per second, ETA. */
export function rebuildText(progress: RebuildProgress): string {
  const percent = rebuildPercent(progress);
  switch (progress.state) {
    case 'queued':
      return 'Queued: starts when the rebuild before it ends';
    case 'running':
      return `Running: ${number(progress.processed)} events, position ${number(progress.position)} of ${number(progress.head)} (${percent}%), ${number(Math.round(progress.eventsPerSecond))} events/s, ETA ${progress.etaSeconds === null ? 'unknown' : `${Math.ceil(progress.etaSeconds)} s`}`;
    case 'done': {
      const seconds = ((progress.finishedAt ?? progress.startedAt) - progress.startedAt) / 1000;
      return `Done: ${number(progress.processed)} events in ${seconds.toFixed(1)} s, swapped in`;
    }
    case 'failed':
      return `Failed: ${progress.error ?? 'unknown error'} (the live read model is untouched)`;
  }
}

export function rebuildPercent(progress: RebuildProgress): number {
  if (progress.state === 'done') return 100;
  if (progress.head <= 0) return 0;
  return Math.min(100, Math.floor((progress.position / progress.head) * 100));
}

export function projectionRows(
  status: readonly ProjectionStatus[],
  deadLetters: readonly DeadLetter[],
): ProjectionRow[] {
  return status.map((p) => {
    const parked = deadLetters.filter((d) => d.projection === p.name).length;
    const rebuilding = p.rebuild !== null && (p.rebuild.state === 'running' || p.rebuild.state === 'queued');
    const state: ProjectionState = rebuilding ? 'rebuilding' : parked > 0 ? 'degraded' : p.lagCapped ? 'behind' : 'ok';
    return {
      name: p.name,
      checkpoint: p.checkpoint,
      head: p.head,
      lagText: p.lagCapped ? `${number(p.lag)}+` : number(p.lag),
      state,
      stateText: parked > 0 && rebuilding ? `${STATE_TEXT.rebuilding}, ${parked} dead letters` : STATE_TEXT[state],
      deadLetters: parked,
      rebuild: p.rebuild
        ? { state: p.rebuild.state, text: rebuildText(p.rebuild), percent: rebuildPercent(p.rebuild) }
        : null,
    };
  });
}

const clockLabel = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** The lag chart: one line per projection over the samples kept. */
export function lagChart(samples: readonly LagSample[], names: readonly string[]): ChartView {
  const latest = samples.at(-1);
  const worst = latest ? Math.max(0, ...Object.values(latest.lag)) : 0;
  const minutes = latest ? Math.max(1, Math.round((latest.at - samples[0].at) / 60_000)) : 0;
  return chartView({
    id: 'lag-chart',
    title: 'Projection lag',
    summary:
      samples.length === 0
        ? 'No sample yet: the service samples every projection’s lag every few seconds.'
        : `Events not yet applied per projection, sampled every few seconds over the last ${minutes === 1 ? 'minute' : `${minutes} minutes`} (UTC); now at most ${number(worst)}.`,
    kind: 'line',
    labels: samples.map((s) => clockLabel(s.at)),
    series: names.map((name) => ({ label: name, values: samples.map((s) => s.lag[name] ?? 0) })),
    unit: 'Events behind',
  });
}

/** What the Projections screen's script reads: texts by key, progress by key, charts by canvas id. */
export interface LiveUpdate {
  fields: Record<string, string>;
  badges: Record<string, string>;
  progress: Record<string, number>;
  charts: Record<string, { labels: string[]; series: Array<{ label: string; values: number[] }> }>;
}

export function liveProjections(
  report: ProjectionStatusReport,
  rows: readonly ProjectionRow[],
  lag: ChartView,
): LiveUpdate {
  const update: LiveUpdate = { fields: {}, badges: {}, progress: {}, charts: {} };
  update.fields.role = report.role;
  for (const row of rows) {
    update.fields[`${row.name}.checkpoint`] = number(row.checkpoint);
    update.fields[`${row.name}.head`] = number(row.head);
    update.fields[`${row.name}.lag`] = row.lagText;
    update.fields[`${row.name}.state`] = row.stateText;
    update.badges[`${row.name}.state`] = row.state;
    update.fields[`${row.name}.rebuild`] = row.rebuild?.text ?? 'No rebuild since this process started';
    update.progress[`${row.name}.rebuild`] = row.rebuild?.percent ?? 0;
  }
  update.charts[lag.id] = { labels: lag.labels, series: lag.series.map((s) => ({ label: s.label, values: s.values })) };
  return update;
}

export interface DeadLetterRow extends DeadLetter {
  firstFailed: { iso: string; text: string };
  lastFailed: { iso: string; text: string };
}

export const deadLetterRows = (letters: readonly DeadLetter[]): DeadLetterRow[] =>
  letters.map((d) => ({ ...d, firstFailed: timeView(d.firstFailedAt), lastFailed: timeView(d.lastFailedAt) }));

const MINUTE = 60_000;
/** The event types drawn on their own; the rest are summed as "other types". */
const TYPES_DRAWN = 6;

/** Events per minute by type, over `minutes` minutes up to `now`, from audit entries (any order). */
export function eventsPerMinuteChart(
  entries: ReadonlyArray<{ type: string; recorded_at: number }>,
  now: number,
  minutes: number,
  capped: boolean,
): ChartView {
  const first = now - (now % MINUTE) - (minutes - 1) * MINUTE;
  const totals = new Map<string, number>();
  for (const e of entries) if (e.recorded_at >= first) totals.set(e.type, (totals.get(e.type) ?? 0) + 1);
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([t]) => t);
  const drawn = ranked.slice(0, TYPES_DRAWN);
  const other = ranked.length > TYPES_DRAWN;
  const labels = drawn.concat(other ? ['other types'] : []);
  const values = labels.map(() => Array.from({ length: minutes }, () => 0));
  for (const e of entries) {
    if (e.recorded_at < first) continue;
    const minute = Math.min(minutes - 1, Math.floor((e.recorded_at - first) / MINUTE));
    const index = drawn.indexOf(e.type);
    values[index >= 0 ? index : labels.length - 1][minute] += 1;
  }
  const total = entries.filter((e) => e.recorded_at >= first).length;
  return chartView({
    id: 'events-chart',
    title: 'Events per minute by type',
    summary: `${number(total)} events recorded in the last ${minutes} minutes (UTC)${capped ? ', counting the newest ones only' : ''}${total === 0 ? '' : `; the most frequent type is ${ranked[0]}`}.`,
    kind: 'bar',
    stacked: true,
    labels: Array.from({ length: minutes }, (_, i) => clockLabel(first + i * MINUTE).slice(0, 5)),
    series: labels.map((label, i) => ({ label, values: values[i] })),
    unit: 'Events',
  });
}

/** Deliveries succeeded and failed per period, across every workspace. */
export function deliveriesChart(attempts: readonly AttemptCount[], bucketMs: number): ChartInput & ChartView {
  const succeeded = attempts.reduce((n, a) => n + a.succeeded, 0);
  const failed = attempts.reduce((n, a) => n + a.failed, 0);
  const hours = Math.round((attempts.length * bucketMs) / 3_600_000);
  return chartView({
    id: 'deliveries-chart',
    title: 'Delivery attempts',
    summary: `${number(succeeded)} succeeded and ${number(failed)} failed over the last ${hours} hours (UTC), every workspace.`,
    kind: 'bar',
    stacked: true,
    labels: attempts.map((a) => `${new Date(a.bucket).toISOString().slice(5, 10)} ${clockLabel(a.bucket).slice(0, 5)}`),
    series: [
      { label: 'Succeeded', values: attempts.map((a) => a.succeeded), tone: 'good' },
      { label: 'Failed', values: attempts.map((a) => a.failed), tone: 'bad' },
    ],
    unit: 'Attempts',
  });
}
