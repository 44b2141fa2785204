import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { toClusterStatements } from './cluster-ddl';

export const AUDIT_TABLE = 'audit_events';

/** The retention days of the trail's TTL as ClickHouse shows it (`TTL toDateTime(at) + toIntervalDay(400)`); undefined without one. */
export function retentionDaysOf(engineFull: string): number | undefined {
  const match = /\bTTL\s+toDateTime\(at\)\s*\+\s*toIntervalDay\((\d+)\)/i.exec(engineFull);
  return match ? Number(match[1]) : undefined;
}

/** The statement that keeps events `days` days. `days` is AUDIT_RETENTION_DAYS, an integer checked at boot; DDL takes no parameters. */
export function retentionStatement(database: string, days: number): string {
  if (!Number.isSafeInteger(days) || days < 1) throw new Error(`audit retention must be a positive number of days, got ${days}`);
  return `ALTER TABLE ${database}.${AUDIT_TABLE} MODIFY TTL toDateTime(at) + INTERVAL ${days} DAY`;
}

/** What applying the retention found: the table not migrated yet, already right, or changed from (days, or none) on some servers. */
export type RetentionOutcome = { table: 'missing' } | { table: 'kept' } | { table: 'changed'; from: (number | undefined)[] };

/**
 * Sets the trail's TTL to `days` where it differs (migration 0024 creates it with the default: a migration cannot
 * read the configuration). Idempotent and a no-op when nothing differs, so every instance may run it at start. On a
 * cluster the TTL is on the local tables (Distributed tables have none): in `replicated` mode one statement ON
 * CLUSTER, in `distributed` mode each reachable node's own table (a node that was down gets it at its next start
 * of any instance).
 */
export async function applyAuditRetention(clickhouse: ClickhouseService, days: number): Promise<RetentionOutcome> {
  const statement = retentionStatement(clickhouse.database, days);
  const { cluster } = clickhouse;
  const servers = !cluster
    ? [{ connection: clickhouse, run: [statement] }]
    : (await cluster.replication()) === 'replicated'
      ? [{ connection: clickhouse, run: toClusterStatements(statement, { cluster: cluster.name, database: clickhouse.database }) }]
      : (await cluster.nodes()).reachable.map((node) => ({ connection: node.connection, run: [statement] }));
  const changedFrom: (number | undefined)[] = [];
  let missing = false;
  for (const server of servers) {
    const [table] = await server.connection.query<{ engine_full: string }>(
      'SELECT engine_full FROM system.tables WHERE database = {database:String} AND name = {table:String}',
      { database: clickhouse.database, table: AUDIT_TABLE },
    );
    if (!table) {
      missing = true;
      continue;
    }
    const current = retentionDaysOf(table.engine_full);
    if (current === days) continue;
    for (const sql of server.run) await server.connection.command(sql);
    changedFrom.push(current);
  }
  if (changedFrom.length > 0) return { table: 'changed', from: changedFrom };
  return missing ? { table: 'missing' } : { table: 'kept' };
}
