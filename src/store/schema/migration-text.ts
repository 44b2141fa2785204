import { servingTableName } from './cluster-ddl';

/**
 * Migration and baseline text for one database: `{{database}}` is the configured database, and `{{serving:<table>}}`
 * the table the service reads (servingTableName: its Distributed table on a cluster).
 */
export function fillPlaceholders(sql: string, database: string, clusterMode: boolean): string {
  return sql
    .replace(/\{\{serving:(\w+)\}\}/g, (_, table: string) => `${database}.${servingTableName(table, clusterMode)}`)
    .replace(/\{\{database\}\}/g, database);
}
