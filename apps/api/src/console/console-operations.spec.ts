import type { ProjectionStatus, RebuildProgress } from '@app/application';
import {
  deliveriesChart,
  eventsPerMinuteChart,
  lagChart,
  liveProjections,
  projectionRows,
  rebuildText,
} from './console-operations';

const status = (name: string, overrides: Partial<ProjectionStatus> = {}): ProjectionStatus => ({
  name,
  checkpoint: 1200,
  head: 1200,
  lag: 0,
  lagCapped: false,
  rebuild: null,
  ...overrides,
});
const progress = (overrides: Partial<RebuildProgress> = {}): RebuildProgress => ({
  projection: 'projects',
  state: 'running',
  processed: 1500,
  position: 3000,
  head: 12000,
  eventsPerSecond: 5210.4,
  etaSeconds: 1.2,
  startedAt: 1_000,
  finishedAt: null,
  error: null,
  ...overrides,
});
const letter = { position: 7, eventId: 'e', streamId: 's', eventType: 't', error: 'x' };
const dead = (projection: string) => ({ ...letter, projection, firstFailedAt: 0, lastFailedAt: 0, attempts: 1 });

describe('The console’s operations views', () => {
  it('says what a rebuild reports: events, position of head, events per second, ETA; then its end', () => {
    expect(rebuildText(progress())).toBe(
      'Running: 1,500 events, position 3,000 of 12,000 (25%), 5,210 events/s, ETA 2 s',
    );
    expect(rebuildText(progress({ etaSeconds: null }))).toContain('ETA unknown');
    expect(rebuildText(progress({ state: 'done', processed: 12000, finishedAt: 3_500 }))).toBe(
      'Done: 12,000 events in 2.5 s, swapped in',
    );
    expect(rebuildText(progress({ state: 'failed', error: 'boom' }))).toBe(
      'Failed: boom (the live read model is untouched)',
    );
  });

  it('gives each projection a state: rebuilding, degraded by dead letters, behind, or ok', () => {
    const rows = projectionRows(
      [
        status('projects', { rebuild: progress() }),
        status('jobs'),
        status('audit', { lag: 10_000, lagCapped: true }),
        status('webhooks', { rebuild: progress({ state: 'done', finishedAt: 2_000 }) }),
      ],
      [dead('jobs'), dead('jobs')],
    );
    expect(rows.map((r) => [r.name, r.state, r.lagText, r.deadLetters])).toEqual([
      ['projects', 'rebuilding', '0', 0],
      ['jobs', 'degraded', '0', 2],
      ['audit', 'behind', '10,000+', 0],
      ['webhooks', 'ok', '0', 0],
    ]);
    expect(rows[0].rebuild?.percent).toBe(25);
    expect(rows[3].rebuild?.percent).toBe(100);
  });

  it('serves the page’s figures to its script by key, and the lag chart by canvas id', () => {
    const rows = projectionRows([status('projects', { checkpoint: 4711, lag: 3 })], []);
    const lag = lagChart(
      [
        { at: 0, lag: { projects: 5 } },
        { at: 120_000, lag: { projects: 3 } },
      ],
      ['projects'],
    );
    const update = liveProjections({ role: 'replica', projections: [] }, rows, lag);
    expect(update.fields).toMatchObject({ role: 'replica', 'projects.checkpoint': '4,711', 'projects.lag': '3' });
    expect(update.badges['projects.state']).toBe('ok');
    expect(update.charts['lag-chart']).toEqual({
      labels: ['00:00:00', '00:02:00'],
      series: [{ label: 'projects', values: [5, 3] }],
    });
    expect(lag.summary).toContain('over the last 2 minutes');
    expect(lagChart([], ['projects']).summary).toContain('No sample yet');
  });

  it('counts events per minute by type, the most frequent drawn, the rest as other types', () => {
    const now = 10 * 60_000 + 30_000;
    const entries = [
      ...Array.from({ length: 8 }, (_, i) => ({ type: `t${i}`, recorded_at: now - 1000 })),
      { type: 't0', recorded_at: now - 61_000 },
      { type: 't1', recorded_at: now - 61_000 },
      { type: 'old', recorded_at: 0 },
    ];
    const chart = eventsPerMinuteChart(entries, now, 3, false);
    expect(chart.labels).toEqual(['00:08', '00:09', '00:10']);
    expect(chart.series.map((s) => s.label)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 'other types']);
    expect(chart.series[0].values).toEqual([0, 1, 1]);
    expect(chart.series[6].values).toEqual([0, 0, 2]);
    expect(chart.summary).toBe('10 events recorded in the last 3 minutes (UTC); the most frequent type is t0.');
    expect(eventsPerMinuteChart(entries, now, 3, true).summary).toContain('counting the newest ones only');
  });

  it('charts deliveries succeeded over failed per period', () => {
    const chart = deliveriesChart(
      [
        { bucket: 0, succeeded: 4, failed: 1 },
        { bucket: 3_600_000, succeeded: 0, failed: 2 },
      ],
      3_600_000,
    );
    expect(chart.series.map((s) => [s.label, s.values])).toEqual([
      ['Succeeded', [4, 0]],
      ['Failed', [1, 2]],
    ]);
    expect(chart.summary).toBe('4 succeeded and 3 failed over the last 2 hours (UTC), every workspace.');
  });
});
