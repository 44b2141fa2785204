// modes: cluster — placement on shards and replicas
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { demoWindow, generateDemoRows } from '../../src/demo/demo-data.generator';
import { demoExchangeRates } from '../../src/demo/demo-exchange-rates';
import { CurrencyRepository } from '../../src/store/repositories/currency.repository';
import { withoutDefaults } from '../../src/demo/demo-data.loader';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { HttpAnswer, listen, send, startAppWithEnv } from '../support/app-with-env';
import { LocalServer, startClickhouseServer } from '../support/local-servers';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * The suite's cluster (2 shards × 2 replicas) against one ClickHouse server: where rows are placed, that every
 * shard answers from its own projections, and that every endpoint answers byte for byte the same on both for
 * the same rows. Cluster mode only (E2E_MODE=cluster, part of npm test).
 */

const SAMPLE = join(__dirname, '../fixtures/focus/focus_sample.csv');
const TODAY_WINDOW = demoWindow(120, new Date().toISOString().slice(0, 10));
/** Rows stamped with one import time, so the freshness headers are the same on both stores too. */
const IMPORTED_AT = '2026-11-01 06:00:00';

async function loadDemo(t: TestApp, organizationId: string): Promise<number> {
  let rows: Record<string, unknown>[] = [];
  let count = 0;
  for (const day of generateDemoRows({ organizationId, ...TODAY_WINDOW, seed: 7 })) {
    rows.push(...day.map((row) => ({ ...withoutDefaults(row), imported_at: IMPORTED_AT })));
    if (rows.length >= 20_000) {
      await t.clickhouse.insert('cost_line_items', rows);
      count += rows.length;
      rows = [];
    }
  }
  await t.clickhouse.insert('cost_line_items', rows);
  // The demo's Azure enrollment bills in EUR: its rates, as the demo loader stores them.
  await new CurrencyRepository(t.clickhouse).insertRates(organizationId, demoExchangeRates(TODAY_WINDOW.from, TODAY_WINDOW.to, 7));
  return count + rows.length;
}

describe('ClickHouse cluster: placement and answers', () => {
  let cluster: TestApp;
  let server: LocalServer;
  let single: TestApp;
  let baseCluster: string;
  let baseSingle: string;
  const organizationId = randomUUID();
  let onCluster: TestOrganization;
  let onSingle: TestOrganization;

  beforeAll(async () => {
    server = await startClickhouseServer(join(process.env.E2E_TMP_DIR!, `cluster-placement-single-${process.pid}`));
    const common = { RATE_LIMIT_PER_MINUTE: '100000', RESULT_CACHE_MAX_MB: '0' };
    cluster = await startAppWithEnv(common);
    single = await startAppWithEnv({
      ...common,
      CLICKHOUSE_URL: server.url,
      CLICKHOUSE_CLUSTER: undefined,
      CLICKHOUSE_CLUSTER_NODE_URLS: undefined,
    });
    [baseCluster, baseSingle] = [await listen(cluster), await listen(single)];
    onCluster = await cluster.keyFor(organizationId);
    onSingle = await single.keyFor(organizationId);
    const [rowsCluster, rowsSingle] = [await loadDemo(cluster, organizationId), await loadDemo(single, organizationId)];
    expect(rowsCluster).toBe(rowsSingle);
  }, 240_000);
  afterAll(async () => {
    await cluster?.close();
    await single?.close();
    await server?.stop();
  });

  it("spreads one organisation over every shard by import unit: a partition wholly on one shard, on both its replicas, an integration's months round-robin", async () => {
    const held: { node: string; shard: number; partition: string; integration: string; period: string; rows: string; sum: string }[] = [];
    for (const node of (await cluster.clickhouse.cluster!.nodes()).reachable) {
      const rows = await node.connection.query<{ partition: string; integration: string; period: string; rows: string; sum: string }>(
        `SELECT _partition_id AS partition, any(integration_id) AS integration, any(billing_period) AS period,
                toString(count()) AS rows, toString(sum(amortized_cost)) AS sum
         FROM ${node.connection.table('cost_line_items')} WHERE organization_id = {org:UUID} GROUP BY partition`,
        { org: organizationId },
      );
      held.push(...rows.map((row) => ({ node: node.id, shard: node.shard, ...row })));
    }
    const byPartition = new Map<string, typeof held>();
    for (const row of held) byPartition.set(row.partition, [...(byPartition.get(row.partition) ?? []), row]);
    for (const [partition, copies] of byPartition) {
      expect({ partition, shards: new Set(copies.map((c) => c.shard)).size, replicas: copies.length }).toEqual({
        partition,
        shards: 1,
        replicas: 2,
      });
      expect(new Set(copies.map((c) => `${c.rows}/${c.sum}`)).size).toBe(1);
    }
    const shardOf = new Map([...byPartition.values()].map((copies) => [`${copies[0].integration}|${copies[0].period}`, copies[0].shard]));
    const integrations = [...new Set(held.map((row) => row.integration))];
    let alternations = 0;
    for (const integration of integrations) {
      const periods = [...new Set(held.filter((row) => row.integration === integration).map((row) => row.period))].sort();
      for (let i = 1; i < periods.length; i++) {
        expect(shardOf.get(`${integration}|${periods[i]}`)).not.toBe(shardOf.get(`${integration}|${periods[i - 1]}`));
        alternations++;
      }
    }
    const perShard = [1, 2].map((shard) => held.filter((row) => row.shard === shard && row.node.endsWith('r1')).length);
    console.log(
      `cluster-placement: ${byPartition.size} partitions of one organisation (${integrations.length} integrations), per shard ${perShard.join(' + ')}; ` +
        `${alternations} consecutive months all on alternate shards`,
    );
    expect(perShard.every((count) => count > 0)).toBe(true);
  });

  it('answers each shard part of a question from that shard’s own aggregate projection', async () => {
    const months = { start: `${TODAY_WINDOW.from.slice(0, 7)}-01`, end: lastDayOfPreviousMonth() };
    const answer = await post(baseCluster, onCluster, 'data', {
      filters: { inclusions: { dateRange: months } },
      groupBy: { dateGrouping: 'monthly', dimension: 'service' },
    });
    expect(answer.status).toBe(200);
    // A shard's part of the question runs on one of its replicas: as a query of its own (is_initial_query = 0),
    // or, on the node the API asked (which serves its own shard locally), inside the initial query.
    const readBy = new Map<number, string[][]>();
    for (const node of (await cluster.clickhouse.cluster!.nodes()).reachable) {
      await node.connection.command('SYSTEM FLUSH LOGS');
      const rows = await node.connection.query<{ projections: string[] }>(
        `SELECT projections FROM system.query_log
         WHERE type = 'QueryFinish' AND position(query, {org:String}) > 0 AND position(query, 'bucket_start') > 0 AND event_time > now() - 120`,
        { org: organizationId },
      );
      for (const row of rows) readBy.set(node.shard, [...(readBy.get(node.shard) ?? []), row.projections]);
    }
    expect([...readBy.keys()].sort()).toEqual([1, 2]);
    // The demo bills Azure in EUR, so the USD answer has two branches (USD rows as they are, EUR rows per day at their
    // rate): a shard reached remotely runs one query per branch, the entry's own shard both inside the initial query.
    for (const [shard, reads] of readBy) {
      const fromProjections = reads.every((projections) => projections.some((name) => /\.(daily|monthly)_dimension_sums$/.test(name)));
      expect({ shard, atMostOneReadPerBranch: reads.length <= 2, fromProjections }).toEqual({
        shard,
        atMostOneReadPerBranch: true,
        fromProjections: true,
      });
    }
    console.log(
      `cluster-placement: a question of whole months read ${[...readBy].map(([shard, reads]) => `shard ${shard}: ${reads[0].join(', ')}`).join('; ')}`,
    );
  });

  /** Questions covering every endpoint, filter kind, grouping and answer format. */
  const questions: [path: string, body: object, accept?: string][] = [];
  const window = { start: TODAY_WINDOW.from, end: TODAY_WINDOW.to };
  const withFilters = (filters: object) => ({ filters: { inclusions: { dateRange: window }, ...filters } });
  for (const dateGrouping of ['daily', 'weekly', 'monthly']) {
    questions.push(['data', { ...withFilters({}), groupBy: { dateGrouping } }]);
    questions.push(['data', { ...withFilters({}), groupBy: { dateGrouping, dimension: 'service' } }]);
  }
  for (const dimension of [
    'cloud',
    'account',
    'region',
    'costType',
    'costLayer',
    'integration',
    'billingPeriod',
    'tag:team',
    'tag:env',
    'costCategory:Business Unit',
  ]) {
    questions.push(['data', { ...withFilters({}), groupBy: { dateGrouping: 'monthly', dimension } }]);
  }
  questions.push(
    ['data', { ...withFilters({}), groupBy: { dateGrouping: 'daily', dimensions: ['cloud', 'service', 'tag:team'] } }],
    [
      'data',
      {
        filters: { inclusions: { dateRange: window, clouds: ['AWS'], services: ['Amazon EC2', 'Amazon S3'] } },
        groupBy: { dateGrouping: 'weekly', dimension: 'region' },
      },
    ],
    [
      'data',
      {
        filters: { inclusions: { dateRange: window }, exclusions: { clouds: ['Azure'], resourceTag: 'env' } },
        groupBy: { dateGrouping: 'monthly', dimension: 'tag:team' },
      },
    ],
    [
      'data',
      {
        filters: { inclusions: { dateRange: window, resourceTag: 'team', resourceTagValues: ['payments', '(not set)'] } },
        groupBy: { dateGrouping: 'monthly', dimension: 'service' },
      },
    ],
    [
      'data',
      {
        filters: { inclusions: { dateRange: window, costCategory: 'Business Unit' } },
        groupBy: { dateGrouping: 'monthly', dimension: 'costCategory:Environment' },
      },
    ],
    [
      'data',
      {
        filters: { inclusions: { billingPeriods: [TODAY_WINDOW.to.slice(0, 7)] } },
        groupBy: { dateGrouping: 'daily', dimension: 'account' },
      },
    ],
    ['data', { groupBy: { dateGrouping: 'daily' } }],
    ['data', { ...withFilters({}), groupBy: { dateGrouping: 'monthly', dimensions: ['cloud', 'tag:env'] } }, 'text/csv'],
  );
  const lastMonth = { start: `${TODAY_WINDOW.to.slice(0, 7)}-01`, end: TODAY_WINDOW.to };
  const monthBefore = { start: `${TODAY_WINDOW.from.slice(0, 7)}-01`, end: `${TODAY_WINDOW.from.slice(0, 7)}-28` };
  for (const metric of ['amortized_cost', 'effective_savings_rate']) {
    for (const dimension of [undefined, 'service', 'tag:team']) {
      questions.push([
        'compare',
        {
          baselinePeriod: monthBefore,
          comparisonPeriod: lastMonth,
          metric,
          groupBy: { dateGrouping: 'weekly', ...(dimension ? { dimension } : {}) },
        },
      ]);
    }
  }
  questions.push(
    [
      'compare',
      {
        baselinePeriod: monthBefore,
        comparisonPeriod: lastMonth,
        metric: 'billed_cost',
        groupBy: { dateGrouping: 'daily', dimension: 'account' },
      },
      'text/csv',
    ],
    ['filters', { filters: { inclusions: { dateRange: window } } }],
    [
      'filters',
      {
        filters: { inclusions: { dateRange: window, clouds: ['AWS'], resourceTag: 'team' } },
        fields: ['services', 'accounts', 'resourceTags', 'costCategories'],
      },
    ],
    ['filters', { filters: { inclusions: { dateRange: window } }, search: 'a' }],
    ['tag-values', { tagKey: 'team' }],
    ['tag-values', { tagKey: 'env', search: 'o' }],
    ['cost-category-values', { categoryKey: 'Business Unit' }],
  );

  it(`answers every endpoint byte for byte as one server does, for the same rows (${questions.length} questions)`, async () => {
    const differences: string[] = [];
    for (const [path, body, accept] of questions) {
      const [a, b] = [await post(baseCluster, onCluster, path, body, accept), await post(baseSingle, onSingle, path, body, accept)];
      const comparable = (x: HttpAnswer) => ({
        status: x.status,
        type: x.headers.get('content-type'),
        through: x.headers.get('x-data-through'),
        importedAt: x.headers.get('x-data-imported-at'),
        body: x.text,
      });
      if (JSON.stringify(comparable(a)) !== JSON.stringify(comparable(b))) differences.push(`${path} ${JSON.stringify(body)}`);
      expect({ path, body, status: a.status, text: a.status === 200 ? '' : a.text }).toEqual({ path, body, status: 200, text: '' });
    }
    expect(differences).toEqual([]);
  }, 120_000);

  it('pages tag values alike: the same values on the same pages', async () => {
    const pages = async (base: string, who: TestOrganization) => {
      const all: string[][] = [];
      let cursor: string | undefined;
      do {
        const answer = await post(base, who, 'tag-values', { tagKey: 'team', limit: 3, ...(cursor ? { cursor } : {}) });
        expect(answer.status).toBe(200);
        const data = JSON.parse(answer.text).data as { values: string[]; nextCursor?: string };
        all.push(data.values);
        cursor = data.nextCursor;
      } while (cursor);
      return all;
    };
    const [a, b] = [await pages(baseCluster, onCluster), await pages(baseSingle, onSingle)];
    expect(a.length).toBeGreaterThan(1);
    expect(a).toEqual(b);
  });

  it('imports a FOCUS export on the cluster to the same answers as on one server', async () => {
    const importer = { cluster: await startAppWithEnv({ CLICKHOUSE_MAX_EXECUTION_SECONDS: '600' }), single };
    const org = randomUUID();
    try {
      const [a, b] = [
        await ingestFocus(importer.cluster.clickhouse, { paths: [SAMPLE], organizationId: org }),
        await ingestFocus(single.clickhouse, { paths: [SAMPLE], organizationId: org }),
      ];
      const summary = ({ partitions, rows, sumBilledCost, sumEffectiveCost, sumListCost }: typeof a) => ({
        partitions,
        rows,
        sumBilledCost,
        sumEffectiveCost,
        sumListCost,
      });
      expect(summary(a)).toEqual(summary(b));
      const [keyA, keyB] = [await cluster.keyFor(org), await single.keyFor(org)];
      const range = { start: '2024-09-01', end: '2024-10-31' };
      for (const [path, body] of [
        ['data', { filters: { inclusions: { dateRange: range } }, groupBy: { dateGrouping: 'daily', dimensions: ['cloud', 'service'] } }],
        ['data', { filters: { inclusions: { dateRange: range } }, groupBy: { dateGrouping: 'monthly', dimension: 'tag:application' } }],
        [
          'compare',
          {
            baselinePeriod: { start: '2024-09-01', end: '2024-09-15' },
            comparisonPeriod: { start: '2024-09-16', end: '2024-09-30' },
            metric: 'billed_cost',
            groupBy: { dateGrouping: 'daily', dimension: 'account' },
          },
        ],
        ['tag-values', { tagKey: 'application' }],
      ] as const) {
        const [x, y] = [await post(baseCluster, keyA, path, body), await post(baseSingle, keyB, path, body)];
        expect({ path, status: x.status, body: x.text }).toEqual({ path, status: y.status, body: y.text });
      }
    } finally {
      await importer.cluster.close();
    }
  }, 120_000);
});

function post(base: string, who: TestOrganization, path: string, body: object, accept = 'application/json'): Promise<HttpAnswer> {
  return send(`${base}/v1/cost-insights/${path}`, {
    method: 'POST',
    headers: { ...who.auth, 'Content-Type': 'application/json', Accept: accept, 'Cache-Control': 'no-store' },
    body: JSON.stringify(body),
  });
}

function lastDayOfPreviousMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
}
