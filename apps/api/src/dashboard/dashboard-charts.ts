/**
 * The dashboard's charts, one mechanism for every page that has one (a webhook's deliveries, the
 * API keys' requests, and the operator console's projection lag and events per minute): the page
 * hands `chartView` its labels and series, the `chart` template renders a canvas whose data sits in
 * a `data-chart` attribute (JSON; no inline script, under the pages' CSP) beside a table of the
 * same figures, and dashboard.js draws it with Chart.js, served by the service like the other
 * assets. Without the script the table and the summary still say everything.
 */

/** Colours of the series, by what they mean; the table and the legend carry the same labels. */
const TONES = {
  good: '#15803d',
  bad: '#b91c1c',
} as const;
/** Series without a meaning of their own (one per API key), distinct and readable on white. */
const PALETTE = ['#1d4ed8', '#7c3aed', '#b45309', '#0f766e', '#be185d', '#4d7c0f', '#0369a1', '#6b7280'];

export interface ChartSeries {
  label: string;
  values: number[];
  tone?: keyof typeof TONES;
}

export interface ChartInput {
  /** Unique on the page: the canvas's id, and the prefix of its caption's. */
  id: string;
  title: string;
  /** What the chart shows in one sentence: the canvas's accessible name. */
  summary: string;
  kind: 'bar' | 'line';
  /** Bars of one period on top of each other (succeeded over failed). */
  stacked?: boolean;
  /** The x axis, one per value of every series. */
  labels: string[];
  series: ChartSeries[];
  /** The y axis's title. */
  unit: string;
}

export interface ChartView extends ChartInput {
  /** The JSON dashboard.js reads from `data-chart`. */
  config: string;
  /** The same figures as rows: a label, then one value per series. */
  rows: Array<{ label: string; values: number[] }>;
}

export function chartView(input: ChartInput): ChartView {
  const series = input.series.map((s, i) => ({ ...s, color: s.tone ? TONES[s.tone] : PALETTE[i % PALETTE.length] }));
  const config = JSON.stringify({
    kind: input.kind,
    stacked: input.stacked ?? false,
    labels: input.labels,
    unit: input.unit,
    series: series.map((s) => ({ label: s.label, values: s.values, color: s.color })),
  });
  return {
    ...input,
    config,
    rows: input.labels.map((label, i) => ({ label, values: input.series.map((s) => s.values[i] ?? 0) })),
  };
}

/** A short label of a UTC day for an axis: `Nov 28`. */
export function dayLabel(ms: number): string {
  const date = new Date(ms);
  return `${date.toLocaleString('en', { month: 'short', timeZone: 'UTC' })} ${date.getUTCDate()}`;
}
