// modes: embedded server cluster — projections on every topology
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDemoData } from '../../src/demo/demo-data.loader';
import { deleteOrganizationCosts } from '../../src/store/cost-partitions';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { E2E_MODE } from '../support/e2e-mode';
import { interceptStatements, withSettings } from '../support/statement-interceptor';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * The tag projections (migration 0015) stay exactly consistent with the line items through every kind of write:
 * after each one, the same tag and cost-category questions are answered from the raw rows and from the
 * projections (forced, so the projection really answers; on a cluster allowed: see projection-equivalence),
 * and the answers must be equal. Writes: inserts, a demo load, a FOCUS import and its re-import (REPLACE
 * PARTITION), background merges made to happen (OPTIMIZE FINAL), and the organisation's deletion (DROP PARTITION).
 * In every e2e mode, so on a cluster too, where each shard's parts carry their own projections.
 */
const FORCING = E2E_MODE !== 'cluster';
const WINDOW = { start: '2026-01-01', end: '2026-06-30' };

const QUESTIONS: [path: string, body: object][] = [
  ['data', { filters: { inclusions: { dateRange: WINDOW } }, groupBy: { dateGrouping: 'monthly', dimension: 'tag:team' } }],
  [
    'data',
    { filters: { inclusions: { dateRange: WINDOW } }, groupBy: { dateGrouping: 'daily', dimensions: ['tag:env', 'costCategory:Unit'] } },
  ],
  [
    'data',
    {
      filters: { inclusions: { dateRange: WINDOW, resourceTag: 'team' }, exclusions: { resourceTag: 'env', resourceTagValues: ['dev'] } },
      groupBy: { dateGrouping: 'weekly', dimension: 'service' },
    },
  ],
  [
    'compare',
    {
      metric: 'amortized_cost',
      baselinePeriod: { start: '2026-02-01', end: '2026-02-28' },
      comparisonPeriod: { start: '2026-03-01', end: '2026-03-31' },
      groupBy: { dimension: 'tag:team', dateGrouping: 'monthly' },
    },
  ],
  ['filters', { fields: ['resourceTags', 'costCategories'], filters: { inclusions: { dateRange: WINDOW } } }],
  ['tag-values', { tagKey: 'team' }],
  ['cost-category-values', { categoryKey: 'Unit' }],
];

function focusCsv(path: string, version: number): void {
  const lines: string[] = [];
  for (const month of ['01', '02', '03']) {
    for (const [i, team] of ['payments', 'search', ''].entries()) {
      const amount = `${version}${i}.${month}25`;
      const tags = JSON.stringify(team ? { team, env: i ? 'prod' : 'dev' } : { env: 'prod' }).replace(/"/g, '""');
      const categories = JSON.stringify({ Unit: `u-${i}` }).replace(/"/g, '""');
      lines.push(
        `${amount},${amount},${amount},Usage,2026-${month}-1${i}T00:00:00Z,2026-${month}-01T00:00:00Z,123,Amazon EC2,AWS,USD,"${tags}","${categories}"`,
      );
    }
  }
  writeFileSync(
    path,
    `BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency,Tags,x_CostCategories\n${lines.join('\n')}\n`,
  );
}

describe('tag projections stay consistent with the line items through every write', () => {
  let t: TestApp;
  let org: TestOrganization;
  let mode: 'raw' | 'projection' | undefined;
  let forcing = false;

  beforeAll(async () => {
    t = await TestApp.start({ settings: { CLICKHOUSE_MAX_EXECUTION_SECONDS: '600' } });
    interceptStatements(t.clickhouse, (sql) => {
      if (!mode || !sql.includes('cost_line_items') || sql.includes('system.parts') || sql.includes('dataThrough')) return sql;
      const settings =
        mode === 'raw' ? 'optimize_use_projections = 0' : `optimize_use_projections = 1${forcing ? ', force_optimize_projection = 1' : ''}`;
      return withSettings(sql, settings);
    });
    org = await t.newOrganization();
  }, 60_000);
  afterAll(() => t?.close());

  async function answers(as: 'raw' | 'projection'): Promise<string[]> {
    mode = as;
    try {
      const texts: string[] = [];
      for (const [path, body] of QUESTIONS) {
        const response = await t.http.post(`/v1/cost-insights/${path}`).set(org.auth).set('Cache-Control', 'no-store').send(body);
        expect({ path, status: response.status, text: response.status === 200 ? '' : response.text }).toEqual({
          path,
          status: 200,
          text: '',
        });
        texts.push(response.text);
      }
      return texts;
    } finally {
      mode = undefined;
    }
  }

  /**
   * Raw and projected answers are equal; returns them (the raw ones). While the organisation has no rows the
   * projections are allowed, not forced: the primary key then leaves nothing to read, and ClickHouse rightly picks
   * no projection for nothing (force_optimize_projection would refuse the statement; other suites' rows share the table).
   */
  async function consistent(hasRows = true): Promise<string[]> {
    const raw = await answers('raw');
    forcing = FORCING && hasRows;
    try {
      expect(await answers('projection')).toEqual(raw);
    } finally {
      forcing = false;
    }
    return raw;
  }

  it('after inserts, a demo load, an import and its re-import, merges, and the deletion of the organisation', async () => {
    const empty = await consistent(false);
    await t.insertRows(org.organizationId, [
      {
        usage_date: '2026-01-05',
        amortized_cost: '1.25',
        resource_tags: { team: 'payments', env: 'prod' },
        cost_categories: { Unit: 'u-1' },
      },
      { usage_date: '2026-01-05', amortized_cost: '2.5', resource_tags: { team: '' } },
      { usage_date: '2026-02-07', amortized_cost: '3.75', resource_tags: {}, cost_categories: { Unit: '' } },
    ]);
    const inserted = await consistent();
    expect(inserted).not.toEqual(empty);
    await loadDemoData(t.clickhouse, { organizationId: org.organizationId, days: 60, today: '2026-03-15' });
    const demo = await consistent();
    expect(demo).not.toEqual(inserted);

    const file = join(process.env.E2E_TMP_DIR!, `projection-consistency-${randomUUID()}.csv`);
    focusCsv(file, 1);
    await ingestFocus(t.clickhouse, { paths: [file], organizationId: org.organizationId, integrationId: 'focus' });
    const imported = await consistent();
    expect(imported).not.toEqual(demo);
    focusCsv(file, 2); // the same periods, other amounts: REPLACE PARTITION
    await ingestFocus(t.clickhouse, { paths: [file], organizationId: org.organizationId, integrationId: 'focus' });
    const reimported = await consistent();
    expect(reimported).not.toEqual(imported);

    await t.mergeOrganizationParts(org.organizationId);
    expect(await consistent()).toEqual(reimported);

    await deleteOrganizationCosts(t.clickhouse, org.organizationId);
    expect(await consistent(false)).toEqual(empty);
  }, 240_000);
});
