import type { Metric, OpenMetricsContentType, PrometheusContentType, Registry } from 'prom-client';

/** One label set's counts: per bucket (not cumulative), then the sum and the count. */
interface Series {
  labels: Record<string, string>;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** A line of a histogram as prom-client's registry reads it from a metric's `getForPromString()`. */
interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
}

export interface SeriesHistogramConfig<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Upper bounds, ascending; `+Inf` is implied. */
  buckets: readonly number[];
  registers: (Registry<PrometheusContentType> | Registry<OpenMetricsContentType>)[];
}

/**
 * A Prometheus histogram for a path every request takes: the same exposition as prom-client's
 * `Histogram` (names, label order, buckets, JSON and text), registered in a prom-client registry
 * beside the other metrics, but observed by label values in their declared order. A label set's
 * series is found by one lookup on its joined values; prom-client's `observe` builds, validates
 * and hashes a label object on every call, which cost a GET several percent of its CPU
 * (docs/performance.md, twenty-second session).
 *
 * series-histogram.spec.ts holds it to prom-client's output for the same observations.
 */
export class SeriesHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly labelNames: readonly L[];
  private readonly bounds: readonly number[];
  private readonly series = new Map<string, Series>();

  constructor(config: SeriesHistogramConfig<L>) {
    if ((config.labelNames as readonly string[]).includes('le')) throw new Error('le is a reserved label name');
    if (config.buckets.some((bound, i) => i > 0 && bound <= config.buckets[i - 1]))
      throw new Error(`${config.name}: buckets must be ascending`);
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames;
    this.bounds = [...config.buckets];
    // prom-client's registry reads any metric through `name`, `type`, `help`, `aggregator`,
    // `get()`/`getForPromString()` and `reset()`; its typings list only its own classes.
    for (const registry of config.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** Records one value for the label values given in `labelNames` order. */
  observe(labelValues: readonly string[], value: number): void {
    const key = labelValues.length === 1 ? labelValues[0] : labelValues.join('\u0000');
    let series = this.series.get(key);
    if (series === undefined) {
      if (labelValues.length !== this.labelNames.length)
        throw new Error(`${this.name}: ${labelValues.length} label values for ${this.labelNames.length} labels`);
      series = { labels: this.labelsOf(labelValues), buckets: new Float64Array(this.bounds.length), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        series.buckets[i]++;
        break;
      }
    }
    series.sum += value;
    series.count++;
  }

  /** What the registry writes in the text format: the bucket label beside the series' labels. */
  getForPromString() {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += series.buckets[i];
        values.push({ labels: { le: bound }, sharedLabels: series.labels, value: cumulative, metricName: bucketName });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: bucketName },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (`getMetricsAsJSON`, cluster aggregation): every value with all its labels. */
  get() {
    const data = this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ labels, sharedLabels, value, metricName }) => ({
        labels: { ...labels, ...sharedLabels },
        value,
        metricName,
      })),
    };
  }

  reset(): void {
    this.series.clear();
  }

  private labelsOf(labelValues: readonly string[]): Record<string, string> {
    const labels: Record<string, string> = {};
    this.labelNames.forEach((name, i) => (labels[name] = labelValues[i]));
    return labels;
  }
}
