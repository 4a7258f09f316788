// Latency-percentile charts (SVG) rendered by Vega-Lite: the scenario beside its references (its
// baseline, and the peer where it was measured), each `{ name, latency }`.
async function renderLatencyChart(title, result, references) {
  const vega = await import('vega');
  const vl = await import('vega-lite');
  const percentiles = ['p50', 'p90', 'p97_5', 'p99'];
  const values = [];
  for (const p of percentiles) {
    values.push({ percentile: p.replace('_', '.'), series: title, ms: result.latency[p] });
    for (const reference of references)
      values.push({ percentile: p.replace('_', '.'), series: reference.name, ms: reference.latency[p] });
  }
  const spec = vl.compile({
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: `${title} — latency percentiles`,
    width: 420,
    height: 220,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'percentile', type: 'ordinal', sort: null, title: 'percentile' },
      y: { field: 'ms', type: 'quantitative', title: 'latency (ms)' },
      color: { field: 'series', type: 'nominal', legend: { orient: 'bottom', labelLimit: 400 } },
    },
  }).spec;
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  return view.toSVG();
}

module.exports = { renderLatencyChart };
