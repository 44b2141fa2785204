// modes: cluster — replica and shard faults
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrate, loadMigrations } from '../../src/store/schema/migrator';
import { CLUSTER_WIDE_TABLES, DISTRIBUTED_SUFFIX } from '../../src/store/schema/cluster-ddl';
import { NodesUnreachableError } from '../../src/store/clickhouse/cluster-nodes';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { listen, send, HttpAnswer, startAppWithEnv } from '../support/app-with-env';
import { LocalCluster, startClickhouseCluster } from '../support/clickhouse-cluster';
import { sumDecimals } from '../support/decimals';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Faults of a ClickHouse cluster, on a 2-shard × 2-replica cluster of this file's own (nodes are killed):
 * keys and shared filters seen from every node, migrations with a node down, a replica killed under load,
 * a whole shard down, an import with a node down. Cluster mode only (E2E_MODE=cluster, part of npm test).
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const RANGE = { start: '2026-01-01', end: '2026-06-30' };
const DATA_BODY = JSON.stringify({
  filters: { inclusions: { dateRange: RANGE } },
  groupBy: { dateGrouping: 'monthly', dimension: 'service' },
});

/** Six months of rows of one integration: each month a partition, dealt round-robin over the two shards. */
function monthlyRows(): { usage_date: string; amortized_cost: string; service: string }[] {
  const rows = [];
  for (let month = 1; month <= 6; month++) {
    for (const [i, service] of ['Amazon EC2', 'Amazon S3', 'AWS Lambda'].entries()) {
      rows.push({ usage_date: `2026-0${month}-1${i}`, amortized_cost: `${month}.${i}${month}25`, service });
    }
  }
  return rows;
}

describe('ClickHouse cluster faults (a private 2 × 2 cluster)', () => {
  let cluster: LocalCluster;
  /** Entry node s1r1, and another instance whose entry is s2r2: two API replicas on two nodes. */
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  let org: TestOrganization;
  let total: number;

  beforeAll(async () => {
    cluster = await startClickhouseCluster(join(process.env.E2E_TMP_DIR!, `cluster-faults-${process.pid}`));
    const settings = {
      ...cluster.settings,
      REDIS_URL: undefined, // shared filters in ClickHouse: the cluster-wide table is under test
      API_KEY_CACHE_TTL_SECONDS: '1',
      RATE_LIMIT_PER_MINUTE: '100000',
    };
    a = await startAppWithEnv(settings);
    b = await startAppWithEnv({ ...settings, CLICKHOUSE_URL: cluster.node(2, 2).url });
    [baseA, baseB] = [await listen(a), await listen(b)];
    org = await a.newOrganization();
    const rows = await a.insertRows(org.organizationId, monthlyRows());
    total = sumDecimals(rows.map((row) => row.amortized_cost));
  }, 180_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await cluster?.stop();
  });

  const data = (base: string, who: TestOrganization = org) =>
    send(`${base}/v1/cost-insights/data`, {
      method: 'POST',
      headers: { ...who.auth, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      body: DATA_BODY,
    });
  const totalOf = (answer: HttpAnswer) => JSON.parse(answer.text).data.summary.total_amortized_cost as number;

  it('keeps keys and shared filters readable from every node; a key revoked through one node is refused through another within API_KEY_CACHE_TTL_SECONDS', async () => {
    const other = await a.newOrganization();
    expect((await data(baseB, other)).status).toBe(200);
    const created = await send(`${baseA}/v1/cost-insights/shared-filters`, {
      method: 'POST',
      headers: { ...other.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ organizationId: other.organizationId, filterConfiguration: { metadata: { name: 'from s1r1' } } }),
    });
    expect(created.status).toBe(201);
    const filterId = JSON.parse(created.text).data.filterId as string;
    const read = await send(`${baseB}/v1/cost-insights/shared-filters/${filterId}`, { headers: other.auth });
    expect(read.status).toBe(200);
    expect(JSON.parse(read.text).data.filterConfiguration.metadata.name).toBe('from s1r1');

    await a.apiKeys.revoke(other.keyId);
    const revokedAt = Date.now();
    let refused = await data(baseB, other);
    while (refused.status === 200 && Date.now() - revokedAt < 5000) {
      await sleep(100);
      refused = await data(baseB, other);
    }
    const after = Date.now() - revokedAt;
    expect(refused.status).toBe(401);
    expect(after).toBeLessThanOrEqual(1000 + 500);
    console.log(`cluster-faults: a key revoked through s1r1 is refused through s2r2 after ${after} ms (API_KEY_CACHE_TTL_SECONDS=1)`);
  });

  it('keeps answering, exactly, while one replica is killed under load: its twin serves the shard (0 failed requests)', async () => {
    for (const victim of [cluster.node(2, 1), cluster.node(1, 2)]) {
      const answers: HttpAnswer[] = [];
      const started = Date.now();
      let killedAt = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (Date.now() - started < 6000) {
            if (!killedAt && Date.now() - started > 1500) {
              killedAt = Date.now() - started;
              await victim.kill();
            }
            answers.push(await data(baseA));
          }
        }),
      );
      const failed = answers.filter((answer) => answer.status !== 200 || totalOf(answer) !== total);
      console.log(
        `cluster-faults: ${victim.id} killed after ${killedAt} ms of 8 concurrent /data: ${answers.length} requests, ` +
          `${failed.length} failed or inexact, p50 ${median(answers.map((x) => x.ms))} ms`,
      );
      expect(failed.map((answer) => `${answer.status} ${answer.text.slice(0, 120)}`)).toEqual([]);
      await victim.start();
      expect(totalOf(await data(baseA))).toBe(total);
    }
  }, 120_000);

  it('keeps answering while the node it enters through is killed under load: reads go through another node (0 lost)', async () => {
    // a enters through s1r1 (CLICKHOUSE_URL); the cluster's other nodes (CLICKHOUSE_CLUSTER_NODE_URLS) are its standbys.
    const entry = cluster.node(1, 1);
    const answers: HttpAnswer[] = [];
    const started = Date.now();
    let killedAt = 0;
    let answeredBeforeKill = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (Date.now() - started < 6000) {
          if (!killedAt && Date.now() - started > 1500) {
            killedAt = Date.now() - started;
            answeredBeforeKill = answers.length;
            await entry.kill();
          }
          answers.push(await data(baseA));
        }
      }),
    );
    const failed = answers.filter((answer) => answer.status !== 200 || totalOf(answer) !== total);
    const afterKill = answers.slice(answeredBeforeKill);
    console.log(
      `cluster-faults: entry node ${entry.id} killed after ${killedAt} ms of 8 concurrent /data: ${answers.length} requests ` +
        `(${afterKill.length} after the kill), ${failed.length} failed or inexact, p50 ${median(answers.map((x) => x.ms))} ms`,
    );
    expect(failed.map((answer) => `${answer.status} ${answer.text.slice(0, 120)}`)).toEqual([]);
    expect(afterKill.length).toBeGreaterThan(8);
    await entry.start();
    expect(totalOf(await data(baseA))).toBe(total);
  }, 120_000);

  it('answers a clear 500 envelope within 1 s while a whole shard is down, never part of the answer, and recovers without a restart', async () => {
    const shard = [cluster.node(2, 1), cluster.node(2, 2)];
    await Promise.all(shard.map((node) => node.kill()));
    try {
      const answers = [await data(baseA), await data(baseA), await data(baseA)];
      for (const answer of answers) {
        expect(answer.status).toBe(500);
        expect(JSON.parse(answer.text)).toEqual({
          success: false,
          error: {
            message:
              'Cost data is temporarily unavailable: part of the data store cannot be reached, and a partial answer is never given. Please retry shortly.',
          },
        });
        expect(answer.ms).toBeLessThan(1000);
      }
      console.log(`cluster-faults: shard 2 down: 500 in ${answers.map((x) => x.ms).join('/')} ms`);
    } finally {
      await Promise.all(shard.map((node) => node.start()));
    }
    const restarted = Date.now();
    let back = await data(baseA);
    while (back.status !== 200 && Date.now() - restarted < 15_000) {
      await sleep(200);
      back = await data(baseA);
    }
    expect(back.status).toBe(200);
    expect(totalOf(back)).toBe(total);
    console.log(`cluster-faults: shard 2 back: exact answers again ${Date.now() - restarted} ms after its nodes restarted`);
  }, 60_000);

  it('refuses an import while a node is down, writing nothing; imports once it is back', async () => {
    const file = join(process.env.E2E_TMP_DIR!, `cluster-import-${process.pid}.csv`);
    writeFileSync(
      file,
      'BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency\n' +
        '1.5,1.25,2,Usage,2026-02-03T00:00:00Z,2026-02-01T00:00:00Z,123456789012,Amazon EC2,AWS,USD\n' +
        '2.5,2.25,3,Usage,2026-03-03T00:00:00Z,2026-03-01T00:00:00Z,123456789012,Amazon EC2,AWS,USD\n',
    );
    const importer = await startAppWithEnv({ ...cluster.settings, CLICKHOUSE_MAX_EXECUTION_SECONDS: '600' });
    const target = randomUUID();
    try {
      const victim = cluster.node(2, 2);
      await victim.kill();
      try {
        await expect(ingestFocus(importer.clickhouse, { paths: [file], organizationId: target })).rejects.toThrow(
          /FOCUS import refused, nothing was imported: every node of the cluster must answer: shard 2 replica 2 \(127\.0\.0\.1:\d+\) is unreachable/,
        );
      } finally {
        await victim.start();
      }
      const nothing = await importer.clickhouse.query<{ rows: string }>(
        `SELECT toString(count()) AS rows FROM ${importer.clickhouse.table('cost_line_items')} WHERE organization_id = {org:UUID}`,
        { org: target },
      );
      expect(nothing).toEqual([{ rows: '0' }]);
      for (const node of await importer.nodes()) {
        const tables = await node.query(
          `SELECT name FROM system.tables WHERE database = {db:String} AND startsWith(name, 'focus_import_')`,
          {
            db: node.database,
          },
        );
        expect(tables).toEqual([]);
      }
      const summary = await ingestFocus(importer.clickhouse, { paths: [file], organizationId: target });
      expect(summary).toMatchObject({ rows: 2, billingPeriods: ['2026-02', '2026-03'], sumEffectiveCost: '3.5' });
    } finally {
      await importer.close();
      rmSync(file, { force: true });
    }
  }, 120_000);

  it('migrates every node it reaches, names the one that is down, and brings it up to date on the next run', async () => {
    const migrator = await startAppWithEnv(cluster.settings);
    const victim = cluster.node(1, 2);
    const versions = loadMigrations('x').map((m) => m.version);
    try {
      expect(await migrate(migrator.clickhouse)).toEqual([]); // idempotent: nothing pending anywhere
      await victim.kill();
      // The node's files are lost: it comes back (or is replaced) empty, as a node added later would.
      rmSync(join(process.env.E2E_TMP_DIR!, `cluster-faults-${process.pid}`, victim.id, 'data'), { recursive: true, force: true });
      const refused = await migrate(migrator.clickhouse).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NodesUnreachableError);
      expect((refused as Error).message).toMatch(
        /^migrated 3 of 4 nodes of cluster cost_cluster; run migrate again when every node answers: shard 1 replica 2 \(127\.0\.0\.1:\d+\) is unreachable/,
      );
      await victim.start();
      const applied = await migrate(migrator.clickhouse);
      expect(applied.map((m) => m.version)).toEqual(versions);
      for (const node of await migrator.nodes()) {
        const recorded = await node.query<{ version: number }>(`SELECT version FROM ${node.table('schema_migrations')} ORDER BY version`);
        expect(recorded.map((row) => Number(row.version))).toEqual(versions);
        const distributed = await node.query<{ name: string }>(
          `SELECT name FROM system.tables WHERE database = {db:String} AND engine = 'Distributed' ORDER BY name`,
          { db: node.database },
        );
        // Every cluster-wide table of the one list (cluster-ddl.ts) gets its Distributed table on every node.
        expect(distributed.map((row) => row.name)).toEqual(
          Object.keys(CLUSTER_WIDE_TABLES)
            .map((table) => `${table}${DISTRIBUTED_SUFFIX}`)
            .sort(),
        );
      }
      expect(await migrate(migrator.clickhouse)).toEqual([]);
    } finally {
      await victim.start();
      await migrator.close();
    }
  }, 120_000);
});

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
}
