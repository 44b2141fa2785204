// modes: embedded server cluster — projections on every topology
import { MEASURE_COLUMNS, MeasureColumn } from '../../src/cost-query/metrics';
import { COMMITMENT_PROJECTIONS } from '../../src/cost-query/projections';
import { StatementParameters } from '../../src/store/clickhouse/clickhouse.service';
import { interceptStatements, withSettings } from '../support/statement-interceptor';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';
import { E2E_MODE } from '../support/e2e-mode';

/**
 * Pre-aggregation (aggregate projections daily_dimension_sums, migration 0005, and monthly_dimension_sums,
 * 0006) must never change an answer.
 * Every endpoint is asked the same questions twice: once with projections forbidden
 * (optimize_use_projections = 0: the raw rows) and once with them allowed — and, for the questions the
 * projection can answer (no tag or cost-category condition), REQUIRED (force_optimize_projection = 1:
 * ClickHouse fails the statement if it does not read the projection), so the comparison really is
 * raw vs rolled up. The settings go into the statement text (the chDB connection would turn
 * clickhouse_settings into session-wide SETs); this test-only wrapper is the only way they are set.
 */
type Mode = 'raw' | 'projection-allowed' | 'projection-required' | 'monthly-projection-required';

/** Exact, distinct amounts (10 decimals) — sums of many of them expose any rounding difference. */
function amounts(n: number): Record<MeasureColumn, string> {
  return Object.fromEntries(
    MEASURE_COLUMNS.map((m, k) => [
      m,
      `${((n * 31 + k * 17) % 97) - 5}.${String(((n + 3) * 104_729 + (k + 1) * 7919) % 10_000_000_000).padStart(10, '0')}`,
    ]),
  ) as Record<MeasureColumn, string>;
}

/**
 * Many line items per (day, dimensions): 4 "hours" of each of 24 resources over days in three months,
 * so the projection really rolls rows up; tags and categories vary within one dimension combination.
 */
function estate(offset: number): RowInput[] {
  const rows: RowInput[] = [];
  const days = ['2026-08-30', '2026-08-31', '2026-09-01', '2026-09-15', '2026-09-30', '2026-10-01', '2026-10-02', '2026-10-31'];
  let n = offset;
  for (const usage_date of days) {
    for (let resource = 0; resource < 24; resource++) {
      for (let hour = 0; hour < 4; hour++) {
        rows.push({
          usage_date,
          billing_period: usage_date.slice(0, 7),
          cloud: resource % 3 === 0 ? 'Azure' : 'AWS',
          service: ['Amazon EC2', 'Amazon S3', 'Amazon RDS', ''][resource % 4],
          resource_family: resource % 2 ? 'Compute' : 'Storage',
          region: ['us-east-1', 'eu-west-1', ''][resource % 3],
          instance_type: resource % 5 ? `m6i.${resource % 3}xlarge` : '',
          usage_type: `BoxUsage:${resource % 6}`,
          cost_type: hour === 3 ? 'Tax' : 'Usage',
          cost_layer: resource % 7 ? 'Cloud' : 'Kubernetes',
          account_id: `1000000000${resource % 4}`,
          account_name: `account-${resource % 4}`,
          integration_id: resource % 3 === 0 ? 'azure-ea' : 'aws-cur',
          resource_tags: tagsOf(resource, hour, usage_date),
          ...commitmentOf(resource, hour),
          cost_categories: resource % 5 ? { Unit: resource % 7 === 3 ? '' : `unit-${resource % 2}` } : {},
          ...amounts(n++),
        });
      }
    }
  }
  return rows;
}

/**
 * Commitment columns (migration 0031) for /commitments: a savings plan used and left unused, a usage-category
 * reservation with quantities, FOCUS 1.4 program eligibility on uncovered usage, and usage no commitment covered.
 */
function commitmentOf(resource: number, hour: number): Omit<RowInput, 'usage_date'> {
  const eligibility = '{"CommitmentPrograms":[{"ProgramType":"Savings Plan"}]}';
  if (resource % 5 === 1)
    return {
      billing_account_id: `payer-${resource % 2}`,
      commitment_discount_id: `sp-${resource % 2}`,
      commitment_discount_name: 'Compute Savings Plan',
      commitment_discount_type: 'Savings Plan',
      commitment_discount_category: 'Spend',
      commitment_discount_status: hour === 2 ? 'Unused' : 'Used',
    };
  if (resource % 5 === 2)
    return {
      billing_account_id: 'payer-0',
      commitment_discount_id: 'ri-1',
      commitment_discount_name: 'Reserved Instance',
      commitment_discount_type: 'Reserved Instance',
      commitment_discount_category: 'Usage',
      commitment_discount_status: 'Used',
      commitment_discount_quantity: `${hour}.125`,
      commitment_discount_unit: 'Hours',
    };
  return resource % 10 === 3 ? { commitment_program_eligibility: eligibility } : {};
}

/**
 * Tags of every kind a tag question meets: untagged resources, a key with an empty value, values that exist in
 * one month only (`team-new` from October, `team-old` until September), a resource-id-like key of many values.
 */
function tagsOf(resource: number, hour: number, usage_date: string): Record<string, string> {
  if (resource % 4 === 0) return {};
  const team = resource % 8 === 1 ? '' : resource === 5 ? (usage_date >= '2026-10-01' ? 'team-new' : 'team-old') : `team-${hour % 2}`;
  const tags: Record<string, string> = { env: ['prod', 'dev', 'test'][resource % 3], team, resource: `r-${resource}` };
  if (resource % 6 === 1) delete tags.env;
  return tags;
}

const SEPTEMBER = { start: '2026-09-01', end: '2026-09-30' };
const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };
const QUARTER = { start: '2026-08-01', end: '2026-10-31' };

interface Question {
  name: string;
  path: string;
  body: unknown;
  /** Monthly buckets (or none) over whole months: the monthly projection must be able to answer it. */
  monthly?: boolean;
  /** A tag or cost-category condition: the tag projections (migration 0015) answer it, not the column ones. */
  tags?: boolean;
  /** The one projection that must answer each of its statements (forced by name where forcing is possible). */
  projection?: string;
}

const data = (groupBy: unknown, filters: unknown) => ({ groupBy, filters });

/** Tag and cost-category paths: groupings, filters with and without values, (not set), exclusions, several keys. */
const TAG_QUESTIONS: Question[] = [
  ...(['daily', 'weekly', 'monthly'] as const).flatMap((dateGrouping) =>
    ['tag:team', 'tag:env', 'tag:resource', 'costCategory:Unit'].map((dimension) => ({
      name: `/data ${dateGrouping} by ${dimension}`,
      path: '/v1/cost-insights/data',
      body: data({ dateGrouping, dimension }, { inclusions: { dateRange: QUARTER } }),
      monthly: dateGrouping === 'monthly',
      tags: true,
    })),
  ),
  ...(
    [
      ['a tag filter with values', { inclusions: { dateRange: QUARTER, resourceTag: 'env', resourceTagValues: ['prod', 'dev'] } }],
      ['(not set) values of a tag', { inclusions: { dateRange: QUARTER, resourceTag: 'team', resourceTagValues: ['(not set)'] } }],
      ['a tag key without values (has the key)', { inclusions: { dateRange: QUARTER, resourceTag: 'env' } }],
      ['a tag key excluded (lacks the key)', { inclusions: { dateRange: QUARTER }, exclusions: { resourceTag: 'env' } }],
      [
        'tag values excluded, (not set) among them',
        { inclusions: { dateRange: QUARTER }, exclusions: { resourceTag: 'team', resourceTagValues: ['team-1', '(not set)'] } },
      ],
      [
        'a tag, a cost category and columns together',
        {
          inclusions: { dateRange: QUARTER, resourceTag: 'env', resourceTagValues: ['test'], costCategory: 'Unit', clouds: ['AWS'] },
          exclusions: { costCategory: 'Unit', costCategoryValues: ['unit-0'], services: ['Amazon S3'] },
        },
      ],
    ] as const
  ).flatMap(([what, filters]) =>
    (['service', 'tag:team'] as const).map((dimension) => ({
      name: `/data monthly by ${dimension}, ${what}`,
      path: '/v1/cost-insights/data',
      body: data({ dateGrouping: 'monthly', dimension }, filters),
      monthly: true,
      tags: true,
    })),
  ),
  {
    name: '/data daily by several keys and a column (tag:env, tag:team, costCategory:Unit, cloud)',
    path: '/v1/cost-insights/data',
    body: data({ dateGrouping: 'daily', dimensions: ['tag:env', 'tag:team', 'costCategory:Unit'] }, { inclusions: { dateRange: QUARTER } }),
    tags: true,
  },
  {
    name: '/data weekly by cloud and tag:team over partial months, excluding a category key',
    path: '/v1/cost-insights/data',
    body: data(
      { dateGrouping: 'weekly', dimensions: ['cloud', 'tag:team'] },
      { inclusions: { dateRange: { start: '2026-08-31', end: '2026-10-01' } }, exclusions: { costCategory: 'Unit' } },
    ),
    tags: true,
  },
];
const QUESTIONS: Question[] = [
  ...(['daily', 'weekly', 'monthly'] as const).flatMap((dateGrouping) =>
    [
      'service',
      'account',
      'region',
      'instanceType',
      'usageType',
      'costType',
      'costLayer',
      'cloud',
      'resourceFamily',
      'billingPeriod',
      'integration',
    ].map((dimension) => ({
      name: `/data ${dateGrouping} by ${dimension}`,
      path: '/v1/cost-insights/data',
      body: data({ dateGrouping, dimension }, { inclusions: { dateRange: QUARTER } }),
      monthly: dateGrouping === 'monthly',
    })),
  ),
  {
    name: '/data monthly by service over partial months (daily projection)',
    path: '/v1/cost-insights/data',
    body: data(
      { dateGrouping: 'monthly', dimension: 'service' },
      { inclusions: { dateRange: { start: '2026-08-31', end: '2026-10-01' } } },
    ),
  },
  {
    name: '/data monthly, whole months excluded from a longer range',
    path: '/v1/cost-insights/data',
    body: data(
      { dateGrouping: 'monthly', dimension: 'region' },
      { inclusions: { dateRange: QUARTER }, exclusions: { dateRange: SEPTEMBER } },
    ),
    monthly: true,
  },
  {
    name: '/data totals only',
    path: '/v1/cost-insights/data',
    body: data({ dateGrouping: 'monthly' }, { inclusions: { dateRange: QUARTER } }),
    monthly: true,
  },
  {
    name: '/data three dimensions with inclusions and exclusions',
    path: '/v1/cost-insights/data',
    body: data(
      { dateGrouping: 'weekly', dimensions: ['cloud', 'service', 'region'] },
      {
        inclusions: { dateRange: QUARTER, clouds: ['AWS'], services: ['Amazon EC2', 'Amazon S3'] },
        exclusions: { regions: ['eu-west-1'], costTypes: ['Tax'] },
      },
    ),
  },
  {
    name: '/data by billing periods',
    path: '/v1/cost-insights/data',
    body: data({ dateGrouping: 'monthly', dimension: 'service' }, { inclusions: { billingPeriods: ['2026-09', '2026-10'] } }),
    monthly: true,
  },
  ...TAG_QUESTIONS,
  ...(['amortized_cost', 'billed_cost', 'on_demand_cost', 'total_savings', 'effective_savings_rate'] as const).map((metric) => ({
    name: `/compare ${metric} by service`,
    path: '/v1/cost-insights/compare',
    body: { metric, baselinePeriod: SEPTEMBER, comparisonPeriod: OCTOBER, groupBy: { dimension: 'service', dateGrouping: 'weekly' } },
  })),
  {
    name: '/compare month over month, monthly buckets (monthly projection)',
    path: '/v1/cost-insights/compare',
    body: {
      metric: 'amortized_cost',
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      groupBy: { dimension: 'account', dateGrouping: 'monthly' },
    },
    monthly: true,
  },
  {
    name: '/compare totals, filtered',
    path: '/v1/cost-insights/compare',
    body: {
      metric: 'amortized_cost',
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      filters: { exclusions: { clouds: ['Azure'] } },
    },
  },
  ...(['tag:team', 'tag:env', 'costCategory:Unit'] as const).flatMap((dimension) =>
    (['weekly', 'monthly'] as const).map((dateGrouping) => ({
      // team-old disappears in October and team-new appears: both sides zero-filled for both.
      name: `/compare by ${dimension}, ${dateGrouping}`,
      path: '/v1/cost-insights/compare',
      body: { metric: 'amortized_cost', baselinePeriod: SEPTEMBER, comparisonPeriod: OCTOBER, groupBy: { dimension, dateGrouping } },
      monthly: dateGrouping === 'monthly',
      tags: true,
    })),
  ),
  {
    name: '/compare by tag with tag and category filters, savings rate',
    path: '/v1/cost-insights/compare',
    body: {
      metric: 'effective_savings_rate',
      baselinePeriod: SEPTEMBER,
      comparisonPeriod: OCTOBER,
      filters: { inclusions: { costCategory: 'Unit' }, exclusions: { resourceTag: 'env', resourceTagValues: ['test'] } },
      groupBy: { dimension: 'tag:team', dateGrouping: 'daily' },
    },
    tags: true,
  },
  // Whole months (and none) from the monthly commitments' projection, named; days and weeks from a projection (only
  // the daily commitments' one keeps the commitment columns; the eligibility statement of whole months reads the monthly).
  ...(
    [
      ['daily', undefined],
      ['monthly', COMMITMENT_PROJECTIONS.monthly],
      [undefined, COMMITMENT_PROJECTIONS.monthly],
    ] as const
  ).map(([dateGrouping, projection]) => ({
    name: `/commitments ${dateGrouping ?? 'without a date grouping'}, filtered`,
    path: '/v1/cost-insights/commitments',
    body: { dateGrouping, filters: { inclusions: { dateRange: QUARTER }, exclusions: { accountIds: ['10000000003'] } } },
    projection,
  })),
  {
    name: '/commitments by week, given eligible services',
    path: '/v1/cost-insights/commitments',
    body: { dateGrouping: 'weekly', eligibleServices: ['Amazon EC2'], filters: { inclusions: { dateRange: SEPTEMBER, clouds: ['AWS'] } } },
  },
  {
    name: '/filters, column fields, cross-filtered',
    path: '/v1/cost-insights/filters',
    body: {
      fields: [
        'costLayers',
        'clouds',
        'services',
        'resourceFamilies',
        'regions',
        'instanceTypes',
        'usageTypes',
        'billingPeriods',
        'costTypes',
        'integrations',
      ],
      filters: { inclusions: { dateRange: QUARTER, clouds: ['AWS'], services: ['Amazon EC2'] }, exclusions: { regions: ['us-east-1'] } },
    },
  },
  {
    name: '/filters, tag and category keys and tag values, under a tag filter',
    path: '/v1/cost-insights/filters',
    body: {
      fields: ['resourceTags', 'costCategories', 'services'],
      filters: {
        inclusions: { dateRange: QUARTER, resourceTag: 'env' },
        exclusions: { costCategory: 'Unit', costCategoryValues: ['unit-1'] },
      },
    },
    tags: true,
  },
  {
    name: '/filters, every field (account names from the per-day sums)',
    path: '/v1/cost-insights/filters',
    body: { filters: { inclusions: { dateRange: QUARTER, services: ['Amazon EC2', 'Amazon S3'] } } },
    tags: true,
  },
  {
    // The search condition is on the listed value (an empty one as "(not set)"): still the projection's.
    name: '/filters, column fields, searched',
    path: '/v1/cost-insights/filters',
    body: {
      fields: ['clouds', 'services', 'regions', 'instanceTypes', 'usageTypes', 'costTypes', 'integrations'],
      filters: { inclusions: { dateRange: QUARTER } },
      search: 'E',
    },
  },
  {
    name: '/filters, accounts and tags, searched',
    path: '/v1/cost-insights/filters',
    body: { fields: ['accounts', 'resourceTags', 'costCategories'], filters: { inclusions: { dateRange: QUARTER } }, search: 'T-1' },
    tags: true,
  },
  {
    name: '/filters, tag keys and values, searched',
    path: '/v1/cost-insights/filters',
    body: { fields: ['resourceTags', 'costCategories'], filters: { inclusions: { dateRange: QUARTER } }, search: 'E' },
    tags: true,
  },
  ...['env', 'team', 'resource'].map((tagKey) => ({
    name: `/tag-values of ${tagKey}`,
    path: '/v1/cost-insights/tag-values',
    body: { tagKey },
    tags: true,
  })),
  {
    name: '/tag-values, searched and paged',
    path: '/v1/cost-insights/tag-values',
    body: { tagKey: 'team', search: 'M-', limit: 1 },
    tags: true,
  },
  {
    name: '/cost-category-values',
    path: '/v1/cost-insights/cost-category-values',
    body: { categoryKey: 'Unit' },
    tags: true,
  },
];

/**
 * Forcing a projection proves which one answered; on a cluster ClickHouse also refuses the part of a shard that
 * holds none of the question's rows (it reads nothing, so "no projection was used"), which depends on where the
 * random organisation's partitions land. There the answers are compared with projections allowed, and
 * cluster-placement.e2e-spec.ts shows each shard reading its own projection.
 */
const FORCING = E2E_MODE !== 'cluster';

const SETTINGS: Record<Mode, (question?: Question) => string> = {
  raw: () => 'optimize_use_projections = 0',
  'projection-allowed': () => 'optimize_use_projections = 1',
  'projection-required': (question) =>
    question?.projection
      ? `optimize_use_projections = 1, force_optimize_projection_name = '${question.projection}'`
      : 'optimize_use_projections = 1, force_optimize_projection = 1',
  // On small test data both projections read one granule per part, so the engine would pick either: the statement
  // names the monthly one (of the question's kind) as preferred (projection-preference.ts); ClickHouse fails it
  // unless it really reads that one.
  'monthly-projection-required': (question) => {
    const name = question?.tags ? 'monthly_tag_sums' : 'monthly_dimension_sums';
    return `optimize_use_projections = 1, force_optimize_projection_name = '${name}'`;
  },
};

describe('pre-aggregation (aggregate projections) answers exactly as the raw rows', () => {
  let t: TestApp;
  let org: TestOrganization;
  let mode: Mode | undefined;
  let asked: Question | undefined;
  const statements: { sql: string; params: StatementParameters }[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    interceptStatements(t.clickhouse, (sql, params) => {
      // Cost statements only: not the answer cache's data-version read of system.parts, nor the freshness statement
      // (it reads imported_at, which no projection holds: forced, it would fail whenever a merge made it be re-read),
      // nor the currency planning's read of the days each currency has (a background merge of the organisation's parts
      // changes its data version, so it may be read again in the middle of a monthly ask, where the daily read fails).
      const planning = sql.includes('system.parts') || sql.includes('dataThrough') || sql.includes('AS firstDay');
      if (!mode || !sql.includes('cost_line_items') || planning) return sql;
      statements.push({ sql, params });
      return withSettings(sql, SETTINGS[mode](asked));
    });
    org = await t.newOrganization();
    const other = await t.newOrganization();
    await t.insertRows(org.organizationId, estate(0));
    // Another organisation with the same dimensions: neither path may mix it in.
    await t.insertRows(other.organizationId, estate(5000));
  });
  afterAll(() => t.close());

  async function ask(question: Question, as: Mode) {
    mode = as;
    asked = question;
    try {
      // no-store: every ask reaches ClickHouse (a cached answer would compare an answer with itself).
      return await t.http
        .post(question.path)
        .set(org.auth)
        .set('Cache-Control', 'no-store')
        .send(question.body as object);
    } finally {
      mode = undefined;
    }
  }

  (FORCING ? it : it.skip)('the monthly projection cannot answer days or partial months (ClickHouse refuses to force it)', async () => {
    for (const name of ['/data daily by service', '/data monthly by service over partial months (daily projection)']) {
      const forced = await ask(
        QUESTIONS.find((q) => q.name === name)!,
        'monthly-projection-required',
      );
      expect(forced.status).toBeGreaterThanOrEqual(500);
    }
  });

  it('the store has the projections', async () => {
    const rows = await t.clickhouse.query<{ name: string }>(
      `SELECT name FROM system.projections WHERE database = {db:String} AND table = 'cost_line_items'`,
      { db: t.clickhouse.database },
    );
    expect(rows.map((r) => r.name).sort()).toEqual([
      'daily_activated_tag_sums',
      'daily_commitment_sums',
      'daily_dimension_sums',
      'daily_tag_sums',
      'monthly_activated_tag_sums',
      'monthly_commitment_sums',
      'monthly_dimension_sums',
      'monthly_tag_sums',
    ]);
  });

  it.each(QUESTIONS.map((q) => [q.name, q] as const))('%s', async (_name, question) => {
    const raw = await ask(question, 'raw');
    expect(raw.status).toBe(200);
    // Guard against a vacuous comparison: the question has data.
    expect(JSON.stringify(raw.body.data)).toMatch(/[1-9]|"(dev|prod|test)"/);
    if (question.path === '/v1/cost-insights/commitments')
      expect(raw.body.data.commitments.map((c: { unused_cost: number }) => c.unused_cost > 0)).toContain(true);
    const rolledUp = await ask(question, FORCING ? 'projection-required' : 'projection-allowed');
    expect(rolledUp.status).toBe(200);
    expect(rolledUp.body).toEqual(raw.body);
    if (question.monthly && FORCING) {
      const monthly = await ask(question, 'monthly-projection-required');
      expect(monthly.status).toBe(200);
      expect(monthly.body).toEqual(raw.body);
    }
  });

  // On a cluster EXPLAIN shows the plan of the entry node's own shard only, which may hold none of the rows.
  (FORCING ? it : it.skip)('reads the daily projection for days and partial months, a tag projection with a tag (EXPLAIN)', async () => {
    const plan = async (name: string) => {
      statements.length = 0;
      await ask(
        QUESTIONS.find((q) => q.name === name)!,
        'projection-allowed',
      );
      // The answer's own statement (its metrics' partial sums), not a read the currency planning may send before it
      // when its cached view of the organisation was refreshed (seen once in server mode during a full run).
      const answer = statements.find((statement) => statement.sql.includes('part_amortized_cost'));
      expect(answer).toBeDefined();
      const { sql, params } = answer!;
      const rows = await t.clickhouse.query<{ explain: string }>(`EXPLAIN projections = 1 ${sql}`, params);
      return rows.map((r) => r.explain).join('\n');
    };
    // Days or partial months: only the daily projection can answer (monthly-only questions are proven above).
    const partialMonths = await plan('/data monthly by service over partial months (daily projection)');
    expect(partialMonths).toContain('daily_dimension_sums');
    expect(partialMonths).not.toContain('monthly_dimension_sums');
    expect(await plan('/data daily by account')).toContain('daily_dimension_sums');
    const tagged = await plan('/data weekly by cloud and tag:team over partial months, excluding a category key');
    expect(tagged).toContain('daily_tag_sums');
    expect(tagged).not.toMatch(/dimension_sums/);
    // Whole months of a tag question: the monthly tag projection can answer (proven above, forced).
  });

  describe('converted answers (Azure billed in EUR, asked in USD and in EUR)', () => {
    let converted: TestOrganization;
    const CONVERTED: Question[] = [
      ...['service', 'billingCurrency', 'tag:team'].map((dimension) => ({
        name: `/data monthly by ${dimension}, converted`,
        path: '/v1/cost-insights/data',
        body: { ...data({ dateGrouping: 'monthly', dimension }, { inclusions: { dateRange: QUARTER } }) },
        tags: dimension.startsWith('tag:'),
      })),
      {
        name: '/data daily by cloud in EUR',
        path: '/v1/cost-insights/data',
        body: { ...data({ dateGrouping: 'daily', dimension: 'cloud' }, { inclusions: { dateRange: QUARTER } }), currency: 'EUR' },
      },
      {
        name: '/compare by service across the quarter, converted',
        path: '/v1/cost-insights/compare',
        body: { baselinePeriod: SEPTEMBER, comparisonPeriod: OCTOBER, metric: 'amortized_cost', groupBy: { dimension: 'service' } },
      },
      {
        name: '/filters ranked by converted cost',
        path: '/v1/cost-insights/filters',
        body: { filters: { inclusions: { dateRange: QUARTER } }, fields: ['services', 'accounts', 'resourceTags'] },
        tags: true,
      },
    ];

    beforeAll(async () => {
      converted = await t.newOrganization();
      await t.insertRows(
        converted.organizationId,
        estate(9000).map((row) => (row.cloud === 'Azure' ? { ...row, billing_currency: 'EUR' } : row)),
      );
      const rates = [
        'Date,USD,',
        ...['2026-08-28', '2026-08-31', '2026-09-01', '2026-09-15', '2026-09-30', '2026-10-01', '2026-10-02', '2026-10-30'].map(
          (date, i) => `${date},1.0${80 + i}3,`,
        ),
      ].join('\n');
      const loaded = await t.http.post('/v1/admin/exchange-rates').set(converted.auth).set('Content-Type', 'text/csv').send(rates);
      expect(loaded.status).toBe(200);
    });

    it.each(CONVERTED.map((q) => [q.name, q] as const))('%s', async (_name, question) => {
      const askAs = async (as: Mode) => {
        mode = as;
        asked = question;
        try {
          return await t.http
            .post(question.path)
            .set(converted.auth)
            .set('Cache-Control', 'no-store')
            .send(question.body as object);
        } finally {
          mode = undefined;
        }
      };
      const raw = await askAs('raw');
      expect(raw.status).toBe(200);
      expect(raw.headers['x-currency']).toBe((question.body as { currency?: string }).currency ?? 'USD');
      const rolledUp = await askAs(FORCING ? 'projection-required' : 'projection-allowed');
      expect(rolledUp.status).toBe(200);
      expect(rolledUp.body).toEqual(raw.body);
    });
  });
});
