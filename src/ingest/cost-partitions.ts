import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
import { assertSingleServer } from './ingest-focus';

/**
 * Removes every cost row of one organisation by dropping its partitions. Since migration 0004 a
 * partition of cost_line_items is one (organisation, integration, billing period), so this is exact,
 * atomic per partition and instant. Prefer it to `DELETE FROM cost_line_items WHERE organization_id = …`:
 * a lightweight DELETE is a mutation that visits every part of every organisation (measured on the
 * libchdb server: 110 s with 2,700 parts, against 1.3 s with 9 parts before 0004).
 * Returns the number of rows removed.
 */
export async function deleteOrganizationCosts(clickhouse: ClickhouseService, organizationId: string): Promise<number> {
  assertSingleServer(clickhouse);
  const table = clickhouse.table('cost_line_items');
  const partitions = await clickhouse.query<{ partition_id: string; row_count: string }>(
    `SELECT _partition_id AS partition_id, toString(count()) AS row_count
     FROM ${table} WHERE organization_id = {organization_id:UUID} GROUP BY partition_id`,
    { organization_id: organizationId },
  );
  let rows = 0;
  for (const partition of partitions) {
    if (!/^[\w-]+$/.test(partition.partition_id)) throw new Error(`unexpected partition id ${partition.partition_id}`);
    await clickhouse.command(`ALTER TABLE ${table} DROP PARTITION ID '${partition.partition_id}'`);
    rows += Number(partition.row_count);
  }
  return rows;
}
