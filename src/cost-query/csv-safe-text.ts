import { CSV_FORMULA_GUARD, CSV_FORMULA_PREFIXES } from '../common/csv/spreadsheet-formulas';
import { SqlParameters } from './sql-parameters';

/**
 * SQL for a String expression as a CSV text cell a spreadsheet will not evaluate: csvSafeText's rule
 * (src/common/csv/spreadsheet-formulas.ts) for the cells ClickHouse writes itself. The prefixes are single ASCII
 * bytes, so the first byte decides; prefixes and guard are typed parameters.
 */
export function csvSafeTextSql(expression: string, params: SqlParameters): string {
  const prefixes = params.named('csv_formula_prefixes', 'Array(String)', CSV_FORMULA_PREFIXES);
  const guard = params.named('csv_formula_guard', 'String', CSV_FORMULA_GUARD);
  return `if(has(${prefixes}, substring(${expression}, 1, 1)), concat(${guard}, ${expression}), ${expression})`;
}
