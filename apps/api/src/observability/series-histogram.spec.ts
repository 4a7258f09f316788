import { AggregatorRegistry, Histogram, Registry, RegistryContentType } from 'prom-client';
import { SeriesHistogram } from './series-histogram';

const CONFIG = {
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route template, method and status code',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
};

/** The same observations recorded by prom-client's Histogram and by ours, each in its own registry. */
function both(
  observations: [string, string, string, number][],
  contentType: RegistryContentType = Registry.PROMETHEUS_CONTENT_TYPE,
) {
  const reference = new Registry<RegistryContentType>();
  const ours = new Registry<RegistryContentType>();
  reference.setContentType(contentType);
  ours.setContentType(contentType);
  const histogram = new Histogram({ ...CONFIG, labelNames: [...CONFIG.labelNames], registers: [reference] });
  const series = new SeriesHistogram({ ...CONFIG, registers: [ours] });
  for (const [method, route, status, value] of observations) {
    histogram.observe({ method, route, status }, value);
    series.observe([method, route, status], value);
  }
  return { reference, ours, series };
}

/** Label values a scraper must see escaped, values on and between the bounds, and above the last. */
const OBSERVATIONS: [string, string, string, number][] = [
  ['GET', '/v1/projects/:projectId', '200', 0.0004],
  ['GET', '/v1/projects/:projectId', '200', 0.001],
  ['GET', '/v1/projects/:projectId', '200', 0.0031],
  ['GET', '/v1/projects/:projectId', '304', 0.0012],
  ['POST', '/v1/projects', '201', 0.012],
  ['POST', '/v1/projects', '201', 3.7],
  ['GET', 'a "quoted" \\ route\nline', '404', 0.25],
  ['PATCH', '/v1/projects/:projectId/jobs/:jobId', '200', 0],
];

describe('SeriesHistogram', () => {
  it('is scraped exactly as prom-client writes its own histogram, in both text formats', async () => {
    for (const contentType of [Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE]) {
      const { reference, ours } = both(OBSERVATIONS, contentType);
      expect(await ours.metrics()).toBe(await reference.metrics());
    }
  });

  it('gives the same JSON as prom-client, which its cluster aggregation sums', async () => {
    const { reference, ours } = both(OBSERVATIONS);
    const strip = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
      metrics.map((metric) => ({
        ...metric,
        values: metric.values.map(({ labels, value, ...rest }) => ({
          labels,
          value,
          metricName: (rest as { metricName?: string }).metricName,
        })),
      }));
    expect(strip(await ours.getMetricsAsJSON())).toEqual(strip(await reference.getMetricsAsJSON()));
    const aggregated = AggregatorRegistry.aggregate([await ours.getMetricsAsJSON(), await ours.getMetricsAsJSON()]);
    expect(await aggregated.getSingleMetricAsString(CONFIG.name)).toContain(
      'http_request_duration_seconds_count{method="POST",route="/v1/projects",status="201"} 4',
    );
  });

  it('counts each value in the first bucket whose bound it does not exceed, cumulatively', async () => {
    const { ours } = both([
      ['GET', '/health', '200', 0.001],
      ['GET', '/health', '200', 0.0011],
      ['GET', '/health', '200', 9],
    ]);
    const text = await ours.getSingleMetricAsString(CONFIG.name);
    const bucket = (le: string) =>
      new RegExp(`_bucket\\{le="${le}",method="GET",route="/health",status="200"\\} (\\d+)`).exec(text)?.[1];
    expect([bucket('0.001'), bucket('0.0025'), bucket('2.5'), bucket('\\+Inf')]).toEqual(['1', '2', '2', '3']);
    expect(text).toContain('http_request_duration_seconds_sum{method="GET",route="/health",status="200"} 9.0021');
  });

  it('forgets every series on reset, as the registry resets its metrics', async () => {
    const { ours } = both(OBSERVATIONS);
    ours.resetMetrics();
    expect(await ours.getSingleMetricAsString(CONFIG.name)).toBe(
      `# HELP ${CONFIG.name} ${CONFIG.help}\n# TYPE ${CONFIG.name} histogram`,
    );
  });

  it('refuses label values that do not match its label names, and a reserved or unordered configuration', () => {
    const series = new SeriesHistogram({ ...CONFIG, registers: [] });
    expect(() => series.observe(['GET', '/health'], 1)).toThrow('2 label values for 3 labels');
    expect(() => new SeriesHistogram({ ...CONFIG, labelNames: ['le'], registers: [] })).toThrow('reserved');
    expect(() => new SeriesHistogram({ ...CONFIG, buckets: [1, 0.5], registers: [] })).toThrow('ascending');
  });
});
