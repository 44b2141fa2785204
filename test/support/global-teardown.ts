import { rmSync } from 'node:fs';
import { killPid } from './local-servers';

export default async function globalTeardown(): Promise<void> {
  await keepQueryLog();
  for (const pid of (process.env.E2E_SERVER_PIDS ?? '').split(',').filter(Boolean)) killPid(Number(pid));
  // E2E_KEEP_TMP=1 keeps the servers' files (cluster nodes write node.log beside their data) for a post-mortem.
  if (process.env.E2E_TMP_DIR && !process.env.E2E_KEEP_TMP) rmSync(process.env.E2E_TMP_DIR, { recursive: true, force: true });
}

/**
 * E2E_QUERY_LOG=1 (server mode): the shared server's query and part logs, which live in memory in clickhouse-local,
 * copied into the database `run_log` of its data directory, to read after the run (with E2E_KEEP_TMP=1).
 */
async function keepQueryLog(): Promise<void> {
  const url = process.env.CLICKHOUSE_URL;
  if (!process.env.E2E_QUERY_LOG || !url) return;
  const statements = [
    'SYSTEM FLUSH LOGS',
    'CREATE DATABASE IF NOT EXISTS run_log',
    'CREATE TABLE run_log.query_log ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM system.query_log',
    'CREATE TABLE run_log.part_log ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM system.part_log',
  ];
  for (const statement of statements) await fetch(url, { method: 'POST', body: statement });
}
