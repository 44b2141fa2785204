import { buildDataFreshnessQuery } from '../../src/cost-query/data-freshness.query';

/**
 * Whether a statement the API sent computes an answer (the statements the bench replays directly on ClickHouse):
 * a read of the cost table, not the answer cache's data-version read (system.parts) and not the data-freshness
 * read, which the API sends once per organisation and data version, not once per answer (background merges change
 * the version, so a captured request may carry it).
 */
export function answerStatementFilter(costTable: string): (sql: string) => boolean {
  const freshness = buildDataFreshnessQuery(costTable, { organizationId: '00000000-0000-0000-0000-000000000000' }).sql;
  return (sql) => sql.includes('cost_line_items') && !sql.includes('system.parts') && sql !== freshness;
}
