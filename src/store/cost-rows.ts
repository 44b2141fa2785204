import { ClickhouseService } from './clickhouse/clickhouse.service';

/**
 * The cost line items as the kernel's questions read them (on a cluster, through their Distributed table): the one
 * table a feature hands to a query builder, named here so that no feature names a table.
 */
export function costRowsTable(clickhouse: ClickhouseService): string {
  return clickhouse.table('cost_line_items');
}
