import { buildDataFreshnessQuery } from '../../src/cost-query/data-freshness.query';
import { currencyPresenceSql } from '../../src/store/repositories/currency.repository';

/**
 * Whether a statement the API sent computes an answer (the statements the bench replays directly on ClickHouse):
 * a read of the cost table (or of a build of category sums, which answers for it), not the answer cache's data-version
 * read (system.parts), not a build's own writes and not the data-freshness
 * read and the currency presence read (which billing currencies, in which periods and days), which the API sends once
 * per organisation and data version, not once per answer (background merges change the version, so a captured
 * request may carry them).
 */
export function answerStatementFilter(costTable: string): (sql: string) => boolean {
  const freshness = buildDataFreshnessQuery(costTable, { organizationId: '00000000-0000-0000-0000-000000000000' }).sql;
  const presence = currencyPresenceSql(costTable);
  const readsCosts = (sql: string) => sql.includes('cost_line_items') || sql.includes('category_value_sums');
  return (sql) => readsCosts(sql) && !/^\s*INSERT\b/i.test(sql) && !sql.includes('system.parts') && sql !== freshness && sql !== presence;
}
