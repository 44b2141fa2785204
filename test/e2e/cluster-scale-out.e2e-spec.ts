// modes: cluster — a cluster grown by a shard
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadMigrations, migrate } from '../../src/store/schema/migrator';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { startAppWithEnv } from '../support/app-with-env';
import { LocalCluster, startClickhouseCluster } from '../support/clickhouse-cluster';
import { sumDecimalText } from '../support/decimals';
import { TestApp } from '../support/test-app';

/**
 * Scaling out: a cluster of this file's own grows from 2 shards to 3 (one replica each, to keep it small).
 * The new node gets the schema from the next migrate; questions read every shard, so nothing changes for
 * them; new imports use all three shards, and re-importing a period whose shard changed moves it (dropped
 * from its old shard in the same publish), never duplicating it. Cluster mode only.
 */
const PERIODS = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];

function focusCsv(path: string, version: number): string[] {
  const amounts: string[] = [];
  const lines = PERIODS.map((period, i) => {
    const amount = `${version}${i}.${String(7 * i + version).padStart(4, '0')}`;
    amounts.push(amount);
    return `${amount},${amount},${amount},Usage,${period}-05T00:00:00Z,${period}-01T00:00:00Z,123456789012,Amazon EC2,AWS,USD`;
  });
  writeFileSync(
    path,
    `BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency\n${lines.join('\n')}\n`,
  );
  return amounts;
}

describe('ClickHouse cluster scale-out (a private cluster, 2 shards → 3)', () => {
  const dir = join(process.env.E2E_TMP_DIR!, `cluster-scale-out-${process.pid}`);
  let cluster: LocalCluster;
  let t: TestApp;

  beforeAll(async () => {
    cluster = await startClickhouseCluster(dir, { shards: 2, replicas: 1 });
    t = await startAppWithEnv({ ...cluster.settings, CLICKHOUSE_MAX_EXECUTION_SECONDS: '600' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  /** Per node: the organisation's billing periods and their exact Σ billed. */
  async function placement(organizationId: string): Promise<Record<string, Record<string, string>>> {
    const held: Record<string, Record<string, string>> = {};
    for (const node of await t.nodes()) {
      const [{ id }] = await node.query<{ id: string }>(
        `SELECT concat('s', toString(shard_num), 'r', toString(replica_num)) AS id FROM system.clusters WHERE cluster = {c:String} AND is_local`,
        { c: cluster.name },
      );
      const rows = await node.query<{ period: string; billed: string }>(
        `SELECT billing_period AS period, toString(sum(billed_cost)) AS billed FROM ${node.table('cost_line_items')}
         WHERE organization_id = {org:UUID} GROUP BY period ORDER BY period`,
        { org: organizationId },
      );
      held[id] = Object.fromEntries(rows.map((row) => [row.period, row.billed]));
    }
    return held;
  }

  const total = async (organizationId: string) =>
    (
      await t.clickhouse.query<{ billed: string }>(
        `SELECT toString(sum(billed_cost)) AS billed FROM ${t.clickhouse.table('cost_line_items')} WHERE organization_id = {org:UUID}`,
        { org: organizationId },
      )
    )[0].billed;

  it('migrates the new shard, keeps every answer, then places imports on all three and moves re-imported periods without duplicating them', async () => {
    const file = join(dir, 'export.csv');
    const org = randomUUID();
    const first = focusCsv(file, 1);
    await ingestFocus(t.clickhouse, { paths: [file], organizationId: org, integrationId: 'aws-main' });
    const before = await placement(org);
    expect(Object.keys(before).sort()).toEqual(['s1r1', 's2r1']);
    expect(Object.values(before).map((periods) => Object.keys(periods).length)).toEqual([3, 3]);
    expect(await total(org)).toBe(sumDecimalText(first));

    const [added] = await cluster.addShard();
    // An operator restarts the service with the new node listed (or leaves CLICKHOUSE_CLUSTER_NODE_URLS unset).
    await t.close();
    t = await startAppWithEnv({ ...cluster.settings, CLICKHOUSE_MAX_EXECUTION_SECONDS: '600' });
    // Starting it ran migrate (MIGRATE_ON_START), which found the new node empty and gave it every migration.
    const newNode = (await t.nodes())[(await t.nodes()).length - 1];
    const recorded = await newNode.query<{ version: number }>(`SELECT version FROM ${newNode.table('schema_migrations')} ORDER BY version`);
    expect(recorded.map((row) => Number(row.version))).toEqual(loadMigrations('x').map((m) => m.version));
    expect(await migrate(t.clickhouse)).toEqual([]);
    expect(await total(org)).toBe(sumDecimalText(first)); // the new shard is empty: nothing changed
    expect((await placement(org))[added.id]).toEqual({});

    // The same export again, new amounts: each period lands where the 3-shard cluster puts it.
    const second = focusCsv(file, 2);
    await ingestFocus(t.clickhouse, { paths: [file], organizationId: org, integrationId: 'aws-main' });
    const after = await placement(org);
    const holders = PERIODS.map((period) =>
      Object.entries(after)
        .filter(([, periods]) => periods[period] !== undefined)
        .map(([id]) => id),
    );
    expect(holders.every((ids) => ids.length === 1)).toBe(true); // each period on one shard, none left behind
    expect(new Set(holders.flat())).toEqual(new Set(['s1r1', 's2r1', 's3r1'])); // consecutive months over all three
    expect(await total(org)).toBe(sumDecimalText(second));
    const moved = PERIODS.filter((period, i) => !before[holders[i][0]]?.[period]);
    console.log(
      `cluster-scale-out: after adding shard 3, re-importing 6 periods placed them ${holders.map((ids, i) => `${PERIODS[i]}→${ids[0]}`).join(' ')}; ` +
        `${moved.length} moved from their old shard, none duplicated`,
    );
    expect(moved.length).toBeGreaterThan(0);
    rmSync(file, { force: true });
  }, 240_000);
});
