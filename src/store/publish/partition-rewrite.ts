import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { exceededQueryBudget } from '../clickhouse/clickhouse-errors';
import { COST_ROW_BLOCK_SETTINGS, settingsClause } from '../statement-text';
import { GeneratedTableName, StoreTable } from '../schema/store-tables';
import { isPartitionId, newImportId } from './import-tables';

const COST_TABLE: StoreTable = 'cost_line_items';

/** Copies of a partition that changed while it was being copied, before the rewrite gives up. */
const PARTITION_COPY_ATTEMPTS = 3;

/** Rows copied by one statement at most (a partition more only when it alone is larger): the copy's disk and time. */
const BATCH_ROWS = 4_000_000;

/**
 * Rewrites partitions of the cost table on one host: copied, a batch at a time, into a table of their own (an
 * import's name: backups skip it, a crash's leftover is dropped as an abandoned import's) shaped like the cost table,
 * where the insert builds every projection and the DEFAULT expressions of `recomputed` columns compute them afresh (in
 * bounded blocks: COST_ROW_BLOCK_SETTINGS), then swapped in one by one with REPLACE PARTITION, atomic. Work in
 * proportion to the partitions' rows: a mutation would visit every part of the table (chDB 26.7: 100 s for one
 * organisation's rows among 700 partitions). Run under the publish fence, so no import swaps meanwhile; a partition
 * that changes while it is copied (an insert) is copied again, unless `stillWanted` leaves it out.
 */
export async function rewritePartitions(
  host: ClickhouseService,
  partitions: readonly string[],
  options: { recomputed?: readonly string[]; stillWanted?: (partitions: string[]) => Promise<string[]> } = {},
): Promise<void> {
  const unexpected = partitions.find((partition) => !isPartitionId(partition));
  if (unexpected !== undefined) throw new Error(`unexpected partition id ${unexpected}`);
  if (partitions.length === 0) return;
  const columns = (
    await host.query<{ name: string }>(
      `SELECT name FROM system.columns
       WHERE database = {database:String} AND table = {table:String} AND name NOT IN {recomputed:Array(String)} ORDER BY position`,
      { database: host.database, table: COST_TABLE, recomputed: options.recomputed ?? [] },
    )
  ).map((column) => column.name);
  let pending = [...partitions];
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > PARTITION_COPY_ATTEMPTS) throw new Error(`partition(s) ${pending.join(', ')} kept changing while they were rewritten`);
    if (options.stillWanted) pending = await options.stillWanted(pending);
    const changed: string[] = [];
    for (const batch of batches(await partitionDigests(host, pending))) changed.push(...(await copyAndSwap(host, batch, columns)));
    pending = changed;
  }
}

/** A partition as its parts show it now: what it holds (`digest`) and its rows. */
interface PartitionState {
  partition: string;
  digest: string;
  rows: number;
}

/** The partitions in batches of at most BATCH_ROWS rows (a larger one alone). */
function batches(partitions: PartitionState[]): PartitionState[][] {
  const result: PartitionState[][] = [];
  let rows = Infinity;
  for (const partition of partitions) {
    if (rows + partition.rows > BATCH_ROWS) {
      result.push([]);
      rows = 0;
    }
    result.at(-1)!.push(partition);
    rows += partition.rows;
  }
  return result;
}

/** One copy of the batch's partitions; each swapped in unless it changed while being copied. Answers those that changed. */
async function copyAndSwap(host: ClickhouseService, batch: PartitionState[], columns: string[]): Promise<string[]> {
  const copy = newImportId();
  await host.command(`CREATE TABLE ${host.table(copy)} AS ${host.table(COST_TABLE)}`);
  // Merged once swapped in: merging here too took the CPU the projections need (3M rows, two threads: 14 s stopped, 44 s not).
  await host.command(`SYSTEM STOP MERGES ${host.table(copy)}`);
  try {
    const partitions = batch.map((state) => state.partition);
    await copyPartitions(host, partitions, columns, copy);
    const now = new Map((await partitionDigests(host, partitions)).map((state) => [state.partition, state.digest]));
    const changed = batch.filter((state) => now.get(state.partition) !== state.digest).map((state) => state.partition);
    for (const { partition } of batch) {
      if (!changed.includes(partition))
        await host.command(`ALTER TABLE ${host.table(COST_TABLE)} REPLACE PARTITION ID '${partition}' FROM ${host.table(copy)}`);
    }
    return changed;
  } finally {
    await host.command(`DROP TABLE IF EXISTS ${host.table(copy)}`);
  }
}

/**
 * The partitions' rows inserted into `copy`, by two threads (3M rows with the eight projections: 14 s, against 32 s
 * by one); a copy that exceeds the memory budget so is made again by one, which needs about half.
 */
async function copyPartitions(host: ClickhouseService, partitions: string[], columns: string[], copy: GeneratedTableName): Promise<void> {
  const insert = async (threads: number) =>
    host.longCommand(
      `INSERT INTO ${host.table(copy)} (${columns.join(', ')})
       SELECT ${columns.join(', ')} FROM ${host.table(COST_TABLE)} WHERE _partition_id IN {partitions:Array(String)}
       ${settingsClause(await host.knownSettings({ max_execution_time: 0, ...COST_ROW_BLOCK_SETTINGS, max_insert_threads: threads }))}`,
      { partitions },
    );
  try {
    await insert(2);
  } catch (error) {
    if (exceededQueryBudget(error) === undefined) throw error;
    await host.command(`TRUNCATE TABLE ${host.table(copy)}`);
    await insert(1);
  }
}

/**
 * What each partition that exists holds, and its rows: its parts' block range, rows and mutation version, equal
 * unless rows came, went or were mutated. A merge keeps it: a merged part's data version is its first block, not a
 * mutation's, so only mutation versions count; and only parts with rows (the empty parts a REPLACE PARTITION leaves
 * are cleaned up later). With the plain data version, each merge meanwhile made a 3M-row copy twice.
 */
async function partitionDigests(host: ClickhouseService, partitions: readonly string[]): Promise<PartitionState[]> {
  const rows = await host.query<{ partition: string; digest: string; row_count: string }>(
    `SELECT partition_id AS partition,
            concat(toString(min(min_block_number)), ':', toString(max(max_block_number)), ':', toString(sum(rows)), ':',
                   toString(max(if(data_version != min_block_number, data_version, 0)))) AS digest,
            toString(sum(rows)) AS row_count
     FROM system.parts
     WHERE database = {database:String} AND table = {table:String} AND partition_id IN {partitions:Array(String)} AND active
       AND rows > 0
     GROUP BY partition_id ORDER BY partition_id`,
    { database: host.database, table: COST_TABLE, partitions },
  );
  return rows.map((row) => ({ partition: row.partition, digest: row.digest, rows: Number(row.row_count) }));
}
