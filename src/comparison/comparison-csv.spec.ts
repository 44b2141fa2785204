import { parse } from 'csv-parse/sync';
import { comparisonCsv } from './comparison-csv';
import type { ComparisonResult, ComparisonRow } from './comparison-result';

const delta = { absolute: -2.5, percentage: -50, direction: 'decrease' as const };
const row = (dimension_value: string): ComparisonRow => ({
  dimension_value,
  baseline: {
    total: 5,
    by_date: [
      { date: '2026-09-01', value: 2 },
      { date: '2026-09-02', value: 3 },
    ],
  },
  comparison: { total: 2.5, by_date: [{ date: '2026-10-01', value: 2.5 }] },
  delta,
});

describe('comparisonCsv', () => {
  it('writes one record per row, period and bucket, baseline first, in row order, with the row’s totals and delta', () => {
    const result = { comparisons: [row('b, "quoted"'), row('a')] } as ComparisonResult;
    const csv = Buffer.concat(comparisonCsv(result).chunks).toString();
    expect(parse(csv)).toEqual([
      ['dimension_value', 'period', 'date', 'value', 'period_total', 'delta_absolute', 'delta_percentage', 'delta_direction'],
      ['b, "quoted"', 'baseline', '2026-09-01', '2', '5', '-2.5', '-50', 'decrease'],
      ['b, "quoted"', 'baseline', '2026-09-02', '3', '5', '-2.5', '-50', 'decrease'],
      ['b, "quoted"', 'comparison', '2026-10-01', '2.5', '2.5', '-2.5', '-50', 'decrease'],
      ['a', 'baseline', '2026-09-01', '2', '5', '-2.5', '-50', 'decrease'],
      ['a', 'baseline', '2026-09-02', '3', '5', '-2.5', '-50', 'decrease'],
      ['a', 'comparison', '2026-10-01', '2.5', '2.5', '-2.5', '-50', 'decrease'],
    ]);
  });

  it('is the header alone without rows', () => {
    expect(
      Buffer.concat(comparisonCsv({ comparisons: [] as ComparisonRow[] } as ComparisonResult).chunks)
        .toString()
        .split('\r\n'),
    ).toEqual(['"dimension_value","period","date","value","period_total","delta_absolute","delta_percentage","delta_direction"', '']);
  });
});
