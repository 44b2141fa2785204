import { sleep } from '../common/async/sleep';
import { MAP_DIMENSIONS, MapDimensionKind } from '../cost-query/filter-fields';
import { ACTIVATED_PROJECTIONS } from '../cost-query/projections';
import { ClickhouseService } from './clickhouse/clickhouse.service';
import { rewritePartitions } from './publish/partition-rewrite';
import { PartitionHost, partitionHosts } from './publish/partition-hosts';
import { GeneratedTableName, StoreTable } from './schema/store-tables';

/**
 * The activated map columns of the cost rows (migration 0027): each row's tags and cost categories restricted to the
 * keys its organisation activates, written at every insert by their DEFAULT expressions, which read the keys from the
 * `activated_map_keys` dictionary. What is here keeps them exact when the keys change: the dictionary reloaded on
 * every node, and rows written before a change rewritten by the very same expressions.
 */
export const ACTIVATED_COLUMNS = Object.values(MAP_DIMENSIONS).map((map) => map.activatedColumn);
export const ACTIVATIONS_TABLE = 'tag_key_activations';
const DICTIONARY: StoreTable = 'activated_map_keys';

/**
 * How long after an activation changed a write may still have used the keys before it: a node reloads its
 * dictionary when told, or within the dictionary's lifetime (60 s) if it missed that; plus clock skew.
 */
export const ACTIVATION_SETTLE_SECONDS = 120;

/** Every node loads the organisations' keys afresh (each must answer: a node with old keys would write old maps). */
export async function reloadActivatedKeys(clickhouse: ClickhouseService): Promise<PartitionHost[]> {
  const hosts = await partitionHosts(clickhouse, 'the activated keys were not changed');
  for (const { clickhouse: node } of hosts) await node.command(`SYSTEM RELOAD DICTIONARY ${node.table(DICTIONARY)}`);
  return hosts;
}

/**
 * Rewrites the activated columns of a small table on one host (an import's staging or backup table) from the keys
 * in force: one mutation by its DEFAULT expressions (read from the table itself, so they are written once), atomic
 * per part. Not for the cost table: a mutation of a non-replicated table visits every one of its parts, whatever it
 * changes (rewriteOrganizationPartitions).
 */
export async function rewriteActivatedMaps(host: ClickhouseService, table: GeneratedTableName): Promise<void> {
  const expressions = await host.query<{ name: string; default_expression: string }>(
    `SELECT name, default_expression FROM system.columns
     WHERE database = {database:String} AND table = {table:String} AND name IN {columns:Array(String)} ORDER BY name`,
    { database: host.database, table, columns: ACTIVATED_COLUMNS },
  );
  if (expressions.length !== ACTIVATED_COLUMNS.length) throw new Error(`${table} has no activated map columns (migration 0027)`);
  const assignments = expressions.map((column) => `${column.name} = ${column.default_expression}`).join(', ');
  // Never waited for inside the statement (libchdb's default is mutations_sync = 1): polled, past any statement limit.
  await host.command(`ALTER TABLE ${host.table(table)} UPDATE ${assignments} WHERE 1 SETTINGS mutations_sync = 0`);
  await awaitMutations(host, table);
  for (const { partition_id: partition, projection } of await partsWithoutProjections(host, table)) {
    if (!/^[\w-]+$/.test(partition)) throw new Error(`unexpected partition id ${partition}`);
    await host.command(
      `ALTER TABLE ${host.table(table)} MATERIALIZE PROJECTION ${projection} IN PARTITION ID '${partition}' SETTINGS mutations_sync = 0`,
    );
  }
  await awaitMutations(host, table);
}

/**
 * Rewrites one organisation's partitions of the cost table on one host with the keys in force: each copied and
 * swapped back (partition-rewrite.ts), the activated columns computed afresh by their DEFAULT expressions. Run under
 * the publish fence.
 */
export async function rewriteOrganizationPartitions(host: ClickhouseService, organizationId: string): Promise<void> {
  await rewritePartitions(host, await organizationPartitions(host, 'cost_line_items', organizationId), { recomputed: ACTIVATED_COLUMNS });
}

/** The organisation's partitions of `table` on the host. */
async function organizationPartitions(host: ClickhouseService, table: string, organizationId: string): Promise<string[]> {
  const rows = await host.query<{ partition_id: string }>(
    `SELECT DISTINCT partition_id FROM system.parts
     WHERE database = {database:String} AND table = {table:String} AND active
       AND startsWith(partition, concat('(\\'', {organization_id:String}, '\\''))
     ORDER BY partition_id`,
    { database: host.database, table, organization_id: organizationId.toLowerCase() },
  );
  return rows.map((row) => row.partition_id);
}

/** The (partition, projection) pairs of the table with a part lacking the projection. */
async function partsWithoutProjections(host: ClickhouseService, table: string): Promise<{ partition_id: string; projection: string }[]> {
  // One read of system.parts, whose rows list their projections: a merge finishing meanwhile cannot skew it. Only
  // those the table has: an import's staging table has none (import-staging.ts).
  return host.query(
    `SELECT DISTINCT partition_id, arrayJoin({wanted:Array(String)}) AS projection
     FROM system.parts
     WHERE database = {database:String} AND table = {table:String} AND active AND NOT has(projections, projection)
       AND projection IN (SELECT name FROM system.projections WHERE database = {database:String} AND table = {table:String})
     ORDER BY partition_id, projection`,
    { database: host.database, table, wanted: ACTIVATED_PROJECTIONS },
  );
}

const POLL_MS = 200;

/**
 * Waits until the table's mutations are done, polling system.mutations (a large organisation's rewrite outlasts any
 * statement time limit); a mutation that keeps failing is killed and its reason thrown.
 */
async function awaitMutations(host: ClickhouseService, table: string): Promise<void> {
  for (;;) {
    const pending = await host.query<{ mutation_id: string; latest_fail_reason: string }>(
      `SELECT mutation_id, latest_fail_reason FROM system.mutations
       WHERE database = {database:String} AND table = {table:String} AND NOT is_done`,
      { database: host.database, table },
    );
    if (pending.length === 0) return;
    const failed = pending.find((mutation) => mutation.latest_fail_reason !== '');
    if (failed) {
      await host.command(
        `KILL MUTATION WHERE database = {database:String} AND table = {table:String} AND mutation_id = {mutation_id:String}`,
        { database: host.database, table, mutation_id: failed.mutation_id },
      );
      throw new Error(`rewriting the activated maps of ${table} failed: ${failed.latest_fail_reason}`);
    }
    await sleep(POLL_MS);
  }
}

/** Rows of the organisation whose activated maps differ from its maps restricted to `keys` (0 when exact). */
export async function activatedMapMismatches(
  clickhouse: ClickhouseService,
  organizationId: string,
  keys: { tag: readonly string[]; costCategory: readonly string[] },
): Promise<number> {
  const restricted = (column: string, param: string) => `mapFilter((k, v) -> has({${param}:Array(String)}, k), ${column})`;
  const differs = (kind: 'tag' | 'costCategory', param: string) =>
    `${restricted(MAP_DIMENSIONS[kind].activatedColumn, param)} != ${restricted(MAP_DIMENSIONS[kind].column, param)}`;
  const [row] = await clickhouse.query<{ rows: string }>(
    `SELECT toString(count()) AS rows FROM ${clickhouse.table('cost_line_items')}
     WHERE organization_id = {organization_id:UUID} AND (${differs('tag', 'tag_keys')} OR ${differs('costCategory', 'category_keys')})`,
    { organization_id: organizationId, tag_keys: keys.tag, category_keys: keys.costCategory },
  );
  return Number(row.rows);
}

/** Keys whose activation an import saw loaded on every node before it wrote a row (IngestFocusOptions.beforeWriting). */
export type KeysInForce = ReadonlyArray<{ kind: MapDimensionKind; key: string }>;

/**
 * Whether any of the organisation's key activations changed at or after `since` (ms since the epoch, less the settle
 * time). The row recording that the organisation chose (kind 'choice') changes no key, so it is not counted; nor is a
 * key of `inForce` written or active (its columns were what the import wrote), only its deactivation.
 */
export async function activationsChangedSince(
  clickhouse: ClickhouseService,
  organizationId: string,
  since: number,
  inForce: KeysInForce = [],
): Promise<boolean> {
  const [row] = await clickhouse.query<{ changed: number | string }>(
    `SELECT toUInt8(count() > 0) AS changed FROM ${clickhouse.table(ACTIVATIONS_TABLE)}
     WHERE organization_id = {organization_id:UUID} AND kind IN {kinds:Array(String)}
       AND updated_at >= fromUnixTimestamp64Milli({since:Int64}) - toIntervalSecond(${ACTIVATION_SETTLE_SECONDS})
       AND NOT (arrayExists((k, n) -> k = kind AND n = key, {in_force_kinds:Array(String)}, {in_force_keys:Array(String)})
                AND state IN ('backfilling', 'active'))`,
    {
      organization_id: organizationId,
      since,
      kinds: Object.keys(MAP_DIMENSIONS),
      in_force_kinds: inForce.map(({ kind }) => kind),
      in_force_keys: inForce.map(({ key }) => key),
    },
  );
  return Number(row.changed) === 1;
}
