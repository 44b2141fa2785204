import { ClickhouseService } from '../clickhouse/clickhouse.service';

/**
 * A store being restored from a backup says so on each of its servers (table store_restore, node-local, never in a
 * backup and never dropped by a restore): an API started meanwhile waits instead of serving a half-restored store,
 * and one whose restore was interrupted stays refused until `backup restore` is run again.
 */
export const STORE_RESTORE_TABLE = 'store_restore';

export interface RestoreInProgress {
  backup: string;
  since: string;
}

/** Marks the server's store as being restored from `backup` (creating the database and the marker's table). */
export async function markRestoring(server: ClickhouseService, backup: string): Promise<void> {
  await server.command(`CREATE DATABASE IF NOT EXISTS ${server.database}`);
  await server.command(
    `CREATE TABLE IF NOT EXISTS ${server.database}.${STORE_RESTORE_TABLE}
     (backup String, state Enum8('restoring' = 1, 'restored' = 2), at DateTime64(6, 'UTC')) ENGINE = MergeTree ORDER BY at`,
  );
  await writeState(server, backup, 'restoring');
}

export async function markRestored(server: ClickhouseService, backup: string): Promise<void> {
  await writeState(server, backup, 'restored');
}

/** The restore under way (or interrupted) on this server, if any. */
export async function restoreInProgress(server: ClickhouseService): Promise<RestoreInProgress | undefined> {
  const [marker] = await server.query<{ found: number | string }>(
    `SELECT count() AS found FROM system.tables WHERE database = {database:String} AND name = {name:String}`,
    { database: server.database, name: STORE_RESTORE_TABLE },
  );
  if (Number(marker.found) === 0) return undefined;
  const [newest] = await server.query<{ backup: string; state: string; since: string }>(
    `SELECT backup, toString(state) AS state, toString(at) AS since FROM ${server.database}.${STORE_RESTORE_TABLE} ORDER BY at DESC LIMIT 1`,
  );
  return newest?.state === 'restoring' ? { backup: newest.backup, since: newest.since } : undefined;
}

async function writeState(server: ClickhouseService, backup: string, state: 'restoring' | 'restored'): Promise<void> {
  await server.command(
    `INSERT INTO ${server.database}.${STORE_RESTORE_TABLE} (backup, state, at) SELECT {backup:String}, {state:String}, now64(6)`,
    { backup, state },
  );
}
