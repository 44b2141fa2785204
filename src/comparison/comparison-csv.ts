import { CsvText, csvRecord } from '../answers/csv-text';
import type { ComparisonResult } from './comparison-result';

/** The columns of a /compare CSV answer: one record per comparison row, period and bucket. */
export const COMPARISON_CSV_COLUMNS = [
  'dimension_value',
  'period',
  'date',
  'value',
  'period_total',
  'delta_absolute',
  'delta_percentage',
  'delta_direction',
] as const;

/**
 * A comparison as CSV, long form (what a pivot table wants): for each row in the JSON answer's order,
 * its baseline buckets then its comparison buckets, each with the period's total and the row's delta.
 * Numbers are the JSON answer's own (the same digits).
 */
export function comparisonCsv(result: ComparisonResult): CsvText {
  const records = [csvRecord(COMPARISON_CSV_COLUMNS)];
  for (const row of result.comparisons) {
    const { absolute, percentage, direction } = row.delta;
    for (const period of ['baseline', 'comparison'] as const) {
      const side = row[period];
      for (const bucket of side.by_date) {
        records.push(csvRecord([row.dimension_value, period, bucket.date, bucket.value, side.total, absolute, percentage, direction]));
      }
    }
  }
  return new CsvText(records.join(''));
}
