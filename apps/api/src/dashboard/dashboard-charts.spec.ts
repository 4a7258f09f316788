import { chartView, dayLabel } from './dashboard-charts';

describe('dashboard charts', () => {
  it('carries the figures for the script as JSON and for the table as rows, coloured by meaning or palette', () => {
    const chart = chartView({
      id: 'c',
      title: 'Deliveries',
      summary: '3 attempts',
      kind: 'bar',
      stacked: true,
      unit: 'attempts',
      labels: ['Nov 27', 'Nov 28'],
      series: [
        { label: 'Succeeded', values: [1, 0], tone: 'good' },
        { label: 'Failed', values: [0, 2], tone: 'bad' },
        { label: 'Other', values: [5] },
      ],
    });
    expect(JSON.parse(chart.config)).toEqual({
      kind: 'bar',
      stacked: true,
      labels: ['Nov 27', 'Nov 28'],
      unit: 'attempts',
      series: [
        { label: 'Succeeded', values: [1, 0], color: '#15803d' },
        { label: 'Failed', values: [0, 2], color: '#b91c1c' },
        { label: 'Other', values: [5], color: '#b45309' },
      ],
    });
    expect(chart.rows).toEqual([
      { label: 'Nov 27', values: [1, 0, 5] },
      { label: 'Nov 28', values: [0, 2, 0] },
    ]);
  });

  it('labels a day in UTC', () => {
    expect(dayLabel(Date.UTC(2026, 10, 28))).toBe('Nov 28');
    expect(dayLabel(Date.UTC(2026, 10, 28, 23, 59))).toBe('Nov 28');
  });
});
