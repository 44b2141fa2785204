/**
 * Golden SQL (`npm run queries:golden`): the statements the query kernel writes for a representative set of
 * requests — every endpoint, tags, scopes, a conversion into another currency, cluster mode — and the importer's
 * statements over one export file (its mapping INSERT, its report, the staged partitions), formatted by
 * ClickHouse's own formatter (formatQuery, run by the embedded engine) and committed as src/queries/*.sql; then the
 * repositories' statements, method by method (golden-repositories.ts). A change to the SQL shows as a diff of these
 * files in review; golden-sql.spec.ts fails while they are out of date.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RateBook } from '../src/common/money/exchange-rates';
import { buildComparisonQuery, buildComparisonValuesProbe, ComparisonQuery } from '../src/cost-query/comparison.query';
import { buildCostDataQuery, CostDataQuery } from '../src/cost-query/cost-data.query';
import { buildCostDataPageQuery } from '../src/cost-query/cost-data-page.query';
import { buildAnomalySeriesScopeQuery } from '../src/cost-query/anomaly-series-scope.query';
import { buildScopeDataVersionQuery } from '../src/cost-query/scope-data-version.query';
import { planConversion } from '../src/cost-query/currency-conversion';
import { buildConvertedSumsSelect } from '../src/cost-query/converted-sums.query';
import { buildCategorySumsSelect, CATEGORY_SUM_MAP } from '../src/cost-query/category-sums.query';
import { buildDataFreshnessQuery } from '../src/cost-query/data-freshness.query';
import { buildFilterOptionsQuery, buildMapKeyValuesQuery } from '../src/cost-query/filter-options.query';
import { OrganizationScope } from '../src/cost-query/filters.types';
import { buildInvoicesQuery } from '../src/cost-query/invoices.query';
import { buildForecastSeriesQuery } from '../src/cost-query/forecast-series.query';
import { buildRootCausesQuery, RootCausesQuery } from '../src/cost-query/anomaly-root-causes.query';
import { CompiledSql } from '../src/cost-query/sql-parameters';
import { buildCategoryPreviewQuery } from '../src/cost-query/category-preview.query';
import { buildAllocationQuery, buildSplitFlowsQuery } from '../src/cost-query/allocation.query';
import { buildCommitmentsQuery } from '../src/cost-query/commitments.query';
import { buildBudgetSumsQuery } from '../src/cost-query/budget-sums.query';
import { buildContractAppliedQuery, contractCommitmentsInForceSql } from '../src/cost-query/contracts.query';
import { buildUnitCostSumsQuery } from '../src/cost-query/unit-cost-sums.query';
import { onlyCategory, splitPlanOf } from '../src/cost-query/split-adjustments';
import { buildSplitBasisQuery, buildSplitPortionsQuery } from '../src/cost-query/split-portions.query';
import { MEASURE_COLUMNS } from '../src/cost-query/metrics';
import { compileCategories, VersionedCategory } from '../src/cost-query/cost-category-rules';
import { fileInsertSql } from '../src/store/publish/import-input';
import { filesKeyPresenceSql } from '../src/ingest/files-key-presence';
import { keyPresenceSql } from '../src/cost-query/key-presence.query';
import { inputTableName, reportTableName } from '../src/store/publish/import-tables';
import {
  FOCUS_INPUT_SETTINGS,
  FOCUS_SOURCE_STRUCTURE,
  focusSelectSql,
  IMPORT_MEMORY_SETTINGS,
  reportBlockSql,
  reportTotalsSql,
  stagedPartitionsSql,
} from '../src/ingest/focus-mapping';
import { recordedStatements, recordedText } from './golden-repositories';
import { GOLDEN_IMPORT_ID, GOLDEN_ORGANIZATION_ID } from './statement-recorder';

export const QUERIES_DIR = resolve(__dirname, '../src/queries');

const TABLE = 'cost_insights.cost_line_items';
/** Cluster mode reads through the Distributed table; the kernel writes the same SQL on it. */
const CLUSTER_TABLE = 'cost_insights.cost_line_items_distributed';
const TODAY = '2026-11-25';
const WINDOW = 30;
const ORG: OrganizationScope = { organizationId: GOLDEN_ORGANIZATION_ID };
const SCOPED: OrganizationScope = {
  ...ORG,
  dataScope: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] }, exclusions: { clouds: ['Oracle'] } },
};
const OCTOBER = { start: '2026-10-01', end: '2026-10-31' };
const SEPTEMBER = { start: '2026-09-01', end: '2026-09-30' };

/** A conversion of EUR costs into USD for two days of October (rates loaded for them; the plan is the kernel's). */
const CONVERSION = planConversion(
  'USD',
  'usage_date',
  [
    { currency: 'USD', billingPeriod: '2026-10', firstDay: '2026-10-01', lastDay: '2026-10-31' },
    { currency: 'EUR', billingPeriod: '2026-10', firstDay: '2026-10-01', lastDay: '2026-10-02' },
  ],
  { dateRanges: [OCTOBER] },
  new RateBook([
    { date: '2026-10-01', base: 'EUR', quote: 'USD', rate: '1.0823', source: 'ECB' },
    { date: '2026-10-02', base: 'EUR', quote: 'USD', rate: '1.085', source: 'ECB' },
  ]),
);

/** Two rule-defined categories, one reading the other, the second with a version from October (allocation). */
const RULE_CATEGORIES: VersionedCategory[] = [
  {
    key: 'Team',
    segments: [{ from: '2026-01', category: { key: 'Team', defaultValue: 'Unowned', rules: [{ inheritTag: 'team' }] } }],
  },
  {
    key: 'BusinessUnit',
    segments: [
      {
        from: '2026-01',
        category: {
          key: 'BusinessUnit',
          defaultValue: 'Unallocated',
          rules: [{ value: 'Data', when: { inclusions: { services: ['Amazon RDS'] } } }],
        },
      },
      {
        from: '2026-10',
        category: {
          key: 'BusinessUnit',
          defaultValue: 'Unallocated',
          rules: [
            { value: 'Data', when: { inclusions: { services: ['Amazon RDS'] } } },
            { value: 'Payments', caseInsensitive: true, when: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } } },
            { inheritCategory: 'Team', when: { exclusions: { costCategory: 'Team', costCategoryValues: ['Unowned'] } } },
          ],
        },
      },
    ],
  },
];
const RULE_SCOPE: OrganizationScope = {
  ...ORG,
  ruleCategories: compileCategories(RULE_CATEGORIES, ['BusinessUnit'], {
    imported: 'cost_categories',
    tags: 'resource_tags',
    billingMonth: 'billing_period',
  }),
};

/** A category whose rules come in runs on one field (team tags, then services): each run one lookup. */
const LOOKUP_SCOPE: OrganizationScope = {
  ...ORG,
  ruleCategories: compileCategories(
    [
      {
        key: 'BusinessUnit',
        segments: [
          {
            from: '2026-01',
            category: {
              key: 'BusinessUnit',
              defaultValue: 'Unallocated',
              rules: [
                ...['payments', 'checkout', 'search'].map((team, i) => ({
                  value: `BU-${i % 2}`,
                  when: { inclusions: { resourceTag: 'team', resourceTagValues: [team] } },
                })),
                ...['Amazon RDS', 'Amazon EC2'].map((service) => ({ value: 'Platform', when: { inclusions: { services: [service] } } })),
                { inheritTag: 'env' },
              ],
            },
          },
        ],
      },
    ],
    ['BusinessUnit'],
    { imported: 'cost_categories', tags: 'resource_tags', billingMonth: 'billing_period' },
  ),
};

/** A category with shared-cost splits (split-adjustments.ts): Shared by its targets' cost, Support rows evenly. */
const SPLIT_CATEGORIES: VersionedCategory[] = [
  {
    key: 'Owner',
    segments: [
      {
        from: '2026-10',
        category: {
          key: 'Owner',
          defaultValue: 'Shared',
          rules: [{ inheritTag: 'team' }],
          splits: [
            { source: { value: 'Shared' }, targets: ['data', 'payments'], method: 'proportional' },
            { source: { filters: { inclusions: { services: ['AWS Support'] } } }, targets: ['data', 'payments'], method: 'even' },
          ],
        },
      },
    ],
  },
];
const SPLIT_SCOPE: OrganizationScope = {
  ...ORG,
  ruleCategories: compileCategories(SPLIT_CATEGORIES, ['Owner'], {
    imported: 'cost_categories',
    tags: 'resource_tags',
    billingMonth: 'billing_period',
  }),
};
const SPLIT_QUESTION = {
  scope: SPLIT_SCOPE,
  dimensions: [{ kind: 'costCategory', key: 'Owner' } as const, { kind: 'column', name: 'service' } as const],
  filters: { inclusions: { dateRange: OCTOBER, costCategory: 'Owner', costCategoryValues: ['data'] } },
};
const SPLIT_PLAN = splitPlanOf(SPLIT_SCOPE.ruleCategories?.splits, SPLIT_QUESTION.filters, SPLIT_QUESTION.dimensions)!;
/** What the splits moved on 2 October: 10 EUR of Shared's Amazon EC2 cost onto data. */
const SPLIT_ADJUSTMENTS = [-1n, 1n].map((sign, i) => ({
  usageDate: '2026-10-02',
  billingPeriod: '',
  billingCurrency: 'EUR',
  value: ['Shared', 'data'][i],
  dimensions: [['Shared', 'data'][i], 'Amazon EC2'],
  amounts: MEASURE_COLUMNS.map(() => sign * 100_000_000_000n),
  splitIn: i === 1 ? 100_000_000_000n : 0n,
  splitOut: i === 0 ? 100_000_000_000n : 0n,
}));

/** A question reading a build of category sums (src/cost-categories/category-sums.service.ts): the build's map. */
const CATEGORY_SUMS_SCOPE = (scope: OrganizationScope): OrganizationScope => ({
  ...scope,
  ruleCategories: { ...scope.ruleCategories!, sql: CATEGORY_SUM_MAP, params: {} },
  categorySums: { table: 'cost_insights.category_value_sums', buildId: '4b7e2d1c-9a8f-4e6d-b5c4-3a2b1c0d9e8f' },
});

/** A question grouped by the split category alone, on a build. */
const SPLIT_BY_OWNER_ALONE = {
  scope: CATEGORY_SUMS_SCOPE(SPLIT_SCOPE),
  dimensions: [{ kind: 'costCategory', key: 'Owner' } as const],
  filters: { inclusions: { dateRange: OCTOBER } },
};
const SPLIT_PLAN_BY_OWNER_ALONE = splitPlanOf(
  SPLIT_SCOPE.ruleCategories?.splits,
  SPLIT_BY_OWNER_ALONE.filters,
  SPLIT_BY_OWNER_ALONE.dimensions,
)!;

/** A build of converted sums (src/currency/converted-sums.service.ts). */
const BUILD_ID = '9d1c4f2a-5b6e-4a7d-8c9b-0e1f2a3b4c5d';

const data = (overrides: Partial<CostDataQuery>): CostDataQuery => ({
  scope: ORG,
  filters: { inclusions: { dateRange: OCTOBER } },
  dateGrouping: 'monthly',
  dimensions: [],
  multiDimension: false,
  today: TODAY,
  defaultWindowDays: WINDOW,
  ...overrides,
});
const comparison = (overrides: Partial<ComparisonQuery>): ComparisonQuery => ({
  scope: ORG,
  filters: {},
  baselinePeriod: SEPTEMBER,
  comparisonPeriod: OCTOBER,
  dateGrouping: 'monthly',
  dimension: { kind: 'column', name: 'service' },
  totalLabel: 'Total',
  ...overrides,
});
/** The default scan's root causes: by service, no filters, a scan's baseline weeks and left-out categories. */
const rootCauses = (overrides: Partial<RootCausesQuery>): RootCausesQuery => ({
  scope: ORG,
  filters: {},
  monitored: { kind: 'column', name: 'service' },
  monitoredValues: [],
  anomalies: [],
  baselineWeeks: 4,
  leftOutCategories: ['Tax', 'Credit', 'Adjustment', 'Purchase'],
  tagSource: 'all',
  ...overrides,
});
const options = { table: TABLE, today: TODAY, defaultWindowDays: WINDOW };

/** One import of one gzip CSV export file (src/ingest/focus-load.ts), its tables named as an import names them. */
const IMPORT_ID = GOLDEN_IMPORT_ID;
const IMPORT_PARAMETERS = { organization_id: ORG.organizationId, integration_id: 'aws-main', currency_codes: ['EUR', 'USD'] };
/** The import's statements: only the mapping INSERT has parameters (the organisation, integration and currencies). */
const importStatement = (sql: string, params: Record<string, unknown> = {}): CompiledSql => ({ sql, params });

/** The representative requests, by file name. */
export function goldenStatements(): Record<string, CompiledSql> {
  return {
    'data-daily-by-service': buildCostDataQuery(
      TABLE,
      data({ dateGrouping: 'daily', dimensions: [{ kind: 'column', name: 'service' }] }),
      50001,
    ),
    'data-monthly-by-account-default-window': buildCostDataQuery(
      TABLE,
      data({ filters: {}, dimensions: [{ kind: 'column', name: 'account' }] }),
      50001,
    ),
    'data-three-dimensions-with-tag': buildCostDataQuery(
      TABLE,
      data({
        multiDimension: true,
        dimensions: [
          { kind: 'column', name: 'cloud' },
          { kind: 'column', name: 'service' },
          { kind: 'tag', key: 'team' },
        ],
        filters: {
          inclusions: { dateRange: OCTOBER, resourceTag: 'env', resourceTagValues: ['production'] },
          exclusions: { regions: ['eu-west-1'] },
        },
      }),
      50001,
    ),
    // Every key it names active (activated-maps.ts): the activated maps and their projections (migration 0027).
    'data-daily-by-tag-activated': buildCostDataQuery(
      TABLE,
      data({
        scope: { ...ORG, readsActivatedMaps: true },
        dateGrouping: 'daily',
        dimensions: [{ kind: 'tag', key: 'team' }],
        filters: { inclusions: { dateRange: OCTOBER, costCategory: 'Business Unit', costCategoryValues: ['Payments'] } },
      }),
      50001,
    ),
    // A page of a daily answer by service: items 100 to 149 and the 10 values of highest cost (cost-data-page.query.ts).
    'data-page-daily-by-service-converted': buildCostDataPageQuery(
      TABLE,
      data({ dateGrouping: 'daily', dimensions: [{ kind: 'column', name: 'service' }], conversion: CONVERSION }),
      { offset: 100, limit: 50, topValues: 10 },
    ),
    'data-scoped-key-billing-periods': buildCostDataQuery(
      TABLE,
      data({ scope: SCOPED, filters: { inclusions: { billingPeriods: ['2026-10'] } } }),
      50001,
    ),
    'data-csv-by-cost-category': buildCostDataQuery(
      TABLE,
      data({ dimensions: [{ kind: 'costCategory', key: 'Business Unit' }] }),
      50001,
      'csv',
    ),
    'data-by-rule-defined-category': buildCostDataQuery(
      TABLE,
      data({
        scope: RULE_SCOPE,
        dimensions: [{ kind: 'costCategory', key: 'BusinessUnit' }],
        filters: { inclusions: { dateRange: OCTOBER }, exclusions: { costCategory: 'BusinessUnit', costCategoryValues: ['Data'] } },
      }),
      50001,
    ),
    'data-by-rule-defined-category-in-runs': buildCostDataQuery(
      TABLE,
      data({
        scope: LOOKUP_SCOPE,
        dimensions: [{ kind: 'costCategory', key: 'BusinessUnit' }],
        filters: { inclusions: { dateRange: OCTOBER } },
      }),
      50001,
    ),
    'split-portions-by-category-and-service': buildSplitPortionsQuery(TABLE, data(SPLIT_QUESTION), SPLIT_PLAN),
    'data-by-rule-defined-category-from-category-sums': buildCostDataQuery(
      'cost_insights.category_value_sums',
      data({
        scope: CATEGORY_SUMS_SCOPE(LOOKUP_SCOPE),
        dateGrouping: 'daily',
        dimensions: [{ kind: 'costCategory', key: 'BusinessUnit' }],
        filters: { inclusions: { dateRange: OCTOBER } },
      }),
      50001,
    ),
    'data-monthly-by-service-and-rule-defined-category-from-category-sums': buildCostDataQuery(
      'cost_insights.category_value_sums',
      data({
        scope: CATEGORY_SUMS_SCOPE(LOOKUP_SCOPE),
        dimensions: [
          { kind: 'column', name: 'service' },
          { kind: 'costCategory', key: 'BusinessUnit' },
        ],
        filters: { inclusions: { dateRange: OCTOBER } },
      }),
      50001,
    ),
    'split-portions-from-category-sums': buildSplitPortionsQuery(
      'cost_insights.category_value_sums',
      data({ ...SPLIT_QUESTION, scope: CATEGORY_SUMS_SCOPE(SPLIT_SCOPE) }),
      SPLIT_PLAN,
    ),
    // Grouped by the category alone: the source values and the rows the filter chooses, read apart (splitPortionReads).
    ...Object.fromEntries(
      (['values', 'filters'] as const).map((read) => [
        `split-portions-from-category-sums-${read === 'values' ? 'source-values' : 'chosen-by-filters'}`,
        buildSplitPortionsQuery('cost_insights.category_value_sums', data(SPLIT_BY_OWNER_ALONE), SPLIT_PLAN_BY_OWNER_ALONE, read),
      ]),
    ),
    'category-sums-build': buildCategorySumsSelect(TABLE, ORG.organizationId, BUILD_ID, LOOKUP_SCOPE.ruleCategories!, '2026-10-01'),
    'split-basis': buildSplitBasisQuery(TABLE, data(SPLIT_QUESTION), SPLIT_PLAN)!,
    'data-with-split-adjustments-converted': buildCostDataQuery(
      TABLE,
      data({
        ...SPLIT_QUESTION,
        dateGrouping: 'daily',
        conversion: CONVERSION,
        splits: { plan: SPLIT_PLAN, valueFilters: [onlyCategory(SPLIT_QUESTION.filters, 'Owner')!], adjustments: SPLIT_ADJUSTMENTS },
      }),
      50001,
    ),
    'allocation-with-split-adjustments': buildAllocationQuery(TABLE, {
      scope: SPLIT_SCOPE,
      category: 'Owner',
      defaultValues: ['Shared'],
      window: OCTOBER,
      splits: {
        plan: SPLIT_PLAN,
        valueFilters: [],
        adjustments: SPLIT_ADJUSTMENTS.map((adjustment) => ({ ...adjustment, dimensions: [...adjustment.dimensions, '111111111111'] })),
      },
    }),
    'split-flows-converted': buildSplitFlowsQuery(
      [{ usageDate: '2026-10-02', billingPeriod: '2026-10', billingCurrency: 'EUR', from: 'Shared', to: 'data', amount: 100_000_000_000n }],
      CONVERSION,
    ),
    'commitments-window-eligibility-found': buildCommitmentsQuery(TABLE, {
      scope: ORG,
      filters: { inclusions: { dateRange: OCTOBER } },
      window: OCTOBER,
    }),
    'commitments-daily-converted': buildCommitmentsQuery(TABLE, {
      scope: ORG,
      filters: { inclusions: { dateRange: OCTOBER, clouds: ['AWS'] } },
      window: OCTOBER,
      dateGrouping: 'daily',
      eligibleServices: ['Amazon EC2', 'Amazon RDS'],
      conversion: CONVERSION,
    }),
    'contract-commitments-in-force': contractCommitmentsInForceSql(
      'cost_insights.contract_commitments',
      'cost_insights.contract_commitment_loads',
      ORG.organizationId,
      ['AGR-99-BETA'],
    ),
    'contract-applied-scoped': buildContractAppliedQuery(TABLE, {
      scope: SCOPED,
      window: { start: '2025-12-01', end: '2026-11-24' },
      commitmentIds: ['CMT-SPEND-001', 'CMT-RI-002'],
    }),
    // Two budgets in one pass: one of the whole organisation, one of a team made under a key's data scope.
    'budget-sums-daily-converted': buildBudgetSumsQuery(TABLE, {
      organizationId: ORG.organizationId,
      budgets: [
        { scope: ORG, filters: {} },
        { scope: SCOPED, filters: { inclusions: { services: ['Amazon EC2'] } } },
      ],
      metric: 'amortized_cost',
      window: OCTOBER,
      grain: 'day',
      conversion: CONVERSION,
    }),
    'budget-sums-monthly': buildBudgetSumsQuery(TABLE, {
      organizationId: ORG.organizationId,
      budgets: [{ scope: ORG, filters: { exclusions: { costTypes: ['Tax'] } } }],
      metric: 'billed_cost',
      window: { start: '2025-11-01', end: '2026-10-31' },
      grain: 'month',
    }),
    // A budget on a tag reads the tag map by key (grouped by those keys alone); one on a rule-defined category whose
    // rules read the maps whole keeps them whole.
    'budget-sums-daily-tag-and-rule-category': buildBudgetSumsQuery(TABLE, {
      organizationId: ORG.organizationId,
      budgets: [
        { scope: ORG, filters: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } } },
        { scope: RULE_SCOPE, filters: { inclusions: { costCategory: 'BusinessUnit', costCategoryValues: ['Data'] } } },
      ],
      metric: 'amortized_cost',
      window: OCTOBER,
      grain: 'day',
    }),
    'budget-sums-daily-by-tag': buildBudgetSumsQuery(TABLE, {
      organizationId: ORG.organizationId,
      budgets: [
        { scope: ORG, filters: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } } },
        { scope: ORG, filters: { exclusions: { resourceTag: 'env', resourceTagValues: ['dev'] } } },
      ],
      metric: 'amortized_cost',
      window: OCTOBER,
      grain: 'day',
    }),
    'unit-cost-sums-daily-by-tag-scoped-converted': buildUnitCostSumsQuery(TABLE, {
      scope: SCOPED,
      filters: { inclusions: { dateRange: OCTOBER } },
      today: TODAY,
      defaultWindowDays: WINDOW,
      dateGrouping: 'daily',
      dimension: { kind: 'tag', key: 'team' },
      costMetric: 'amortized_cost',
      conversion: CONVERSION,
    }),
    'cost-category-preview-converted': buildCategoryPreviewQuery(TABLE, {
      scope: RULE_SCOPE,
      key: 'BusinessUnit',
      window: OCTOBER,
      conversion: CONVERSION,
    }),
    'allocation-rule-defined-converted': buildAllocationQuery(TABLE, {
      scope: RULE_SCOPE,
      category: 'BusinessUnit',
      defaultValues: ['Unallocated'],
      window: OCTOBER,
      conversion: CONVERSION,
    }),
    'data-converted-daily-by-billing-currency': buildCostDataQuery(
      TABLE,
      data({ dateGrouping: 'daily', dimensions: [{ kind: 'column', name: 'billingCurrency' }], conversion: CONVERSION }),
      50001,
    ),
    'data-converted-monthly-by-account-from-converted-sums': buildCostDataQuery(
      TABLE,
      data({
        dimensions: [{ kind: 'column', name: 'account' }],
        conversion: CONVERSION,
        convertedSums: { table: 'cost_insights.converted_cost_sums', buildId: BUILD_ID, currencies: ['EUR'] },
      }),
      50001,
    ),
    'converted-sums-build': buildConvertedSumsSelect(TABLE, ORG.organizationId, BUILD_ID, CONVERSION!, '2026-10-01'),
    'data-cluster-monthly-by-service': buildCostDataQuery(
      CLUSTER_TABLE,
      data({ dimensions: [{ kind: 'column', name: 'service' }] }),
      50001,
    ),
    'compare-by-service': buildComparisonQuery(TABLE, comparison({}), 100003),
    'compare-converted-by-tag': buildComparisonQuery(
      TABLE,
      comparison({ dimension: { kind: 'tag', key: 'team' }, conversion: CONVERSION }),
      100003,
    ),
    'compare-by-category-with-splits': buildComparisonQuery(
      TABLE,
      comparison({
        scope: SPLIT_SCOPE,
        dimension: { kind: 'costCategory', key: 'Owner' },
        splits: [
          undefined,
          {
            plan: { ...SPLIT_PLAN, dimensionIndex: 0 },
            valueFilters: [],
            adjustments: SPLIT_ADJUSTMENTS.map((adjustment) => ({ ...adjustment, dimensions: adjustment.dimensions.slice(0, 1) })),
          },
        ],
      }),
      100003,
    ),
    'compare-values-probe': buildComparisonValuesProbe(
      TABLE,
      comparison({ dateGrouping: 'daily' }) as ComparisonQuery & { dimension: never },
      46,
    ),
    'filters-all-fields': buildFilterOptionsQuery({
      ...options,
      scope: ORG,
      filters: { inclusions: { dateRange: OCTOBER, services: ['Amazon EC2'] } },
      fields: ['services', 'accounts', 'resourceTags', 'billingCurrencies'],
    }),
    'filters-search-scoped-converted': buildFilterOptionsQuery({
      ...options,
      scope: SCOPED,
      filters: { inclusions: { dateRange: OCTOBER } },
      fields: ['services', 'costCategories'],
      search: 'ec2',
      conversion: CONVERSION,
    }),
    'tag-values-unpaged': buildMapKeyValuesQuery({ scope: ORG, kind: 'tag', key: 'team', table: TABLE }),
    'cost-category-values-page-scoped': buildMapKeyValuesQuery({
      scope: SCOPED,
      kind: 'costCategory',
      key: 'Business Unit',
      table: TABLE,
      search: 'pay',
      page: { limit: 100, after: 'Payments' },
    }),
    invoices: buildInvoicesQuery(
      TABLE,
      { scope: SCOPED, filters: { inclusions: { dateRange: OCTOBER } }, today: TODAY, defaultWindowDays: WINDOW },
      50001,
    ),
    'data-freshness-scoped': buildDataFreshnessQuery(TABLE, SCOPED),
    'scope-data-version': buildScopeDataVersionQuery(TABLE, SCOPED),
    // Whether a data-scoped key sees the series of an anomaly (its feedback is refused otherwise).
    'anomaly-series-scope-by-tag': buildAnomalySeriesScopeQuery(TABLE, {
      scope: SCOPED,
      monitored: { kind: 'tag', key: 'team' },
      value: 'payments',
      days: { start: '2026-11-20', end: '2026-11-21' },
      leftOutCategories: ['Tax', 'Credit', 'Adjustment', 'Purchase'],
    }),
    'forecast-series-by-service-scoped-converted': buildForecastSeriesQuery(TABLE, {
      scope: SCOPED,
      filters: { inclusions: { clouds: ['AWS'] } },
      window: { start: '2026-07-29', end: '2026-11-24' },
      metric: 'amortized_cost',
      dimension: { kind: 'column', name: 'service' },
      topValues: 5,
      otherLabel: '(other)',
      totalLabel: 'Total',
      conversion: CONVERSION,
    }),
    'anomaly-root-causes-scoped-converted': buildRootCausesQuery(
      TABLE,
      rootCauses({
        scope: SCOPED,
        filters: { inclusions: { clouds: ['AWS'] } },
        monitored: { kind: 'tag', key: 'team' },
        monitoredValues: ['payments', 'search'],
        anomalies: [
          { value: 'payments', start: '2026-10-01', end: '2026-10-02' },
          { start: '2026-10-02', end: '2026-10-02' },
        ],
        conversion: CONVERSION,
      }),
    ),
    // An organisation with activated tag keys, monitoring one of them: causes and filters read the activated maps.
    'anomaly-root-causes-activated-tags': buildRootCausesQuery(
      TABLE,
      rootCauses({
        scope: { ...ORG, readsActivatedMaps: true },
        filters: { inclusions: { resourceTag: 'env', resourceTagValues: ['production'] } },
        monitored: { kind: 'tag', key: 'team' },
        monitoredValues: ['payments'],
        anomalies: [{ value: 'payments', start: '2026-11-20', end: '2026-11-20' }],
        tagSource: 'activated',
      }),
    ),
    'ingest-file-insert': importStatement(
      fileInsertSql(
        `cost_insights.${inputTableName(IMPORT_ID)}`,
        focusSelectSql({
          from: `file('exports/focus-00001.csv.gz', CSVWithNames, '${FOCUS_SOURCE_STRUCTURE}', 'gzip')`,
          rowNumber: '_row_number',
        }),
        { ...FOCUS_INPUT_SETTINGS, ...IMPORT_MEMORY_SETTINGS },
      ),
      IMPORT_PARAMETERS,
    ),
    // A first import's files described before anything is written (the tag keys it activates), two files.
    'ingest-files-key-presence': importStatement(
      filesKeyPresenceSql(
        ['exports/focus-00001.csv.gz', 'exports/focus-00002.csv.gz'].map(
          (path) => `file('${path}', CSVWithNames, '${FOCUS_SOURCE_STRUCTURE}', 'gzip')`,
        ),
        { ...FOCUS_INPUT_SETTINGS, ...IMPORT_MEMORY_SETTINGS },
      ),
      IMPORT_PARAMETERS,
    ),
    'tag-key-presence': {
      sql: keyPresenceSql(TABLE, 'organization_id = {organization_id:UUID}'),
      params: { organization_id: ORG.organizationId },
    },
    'ingest-report-block': importStatement(reportBlockSql(`cost_insights.${inputTableName(IMPORT_ID)}`)),
    'ingest-report-totals': importStatement(reportTotalsSql(`cost_insights.${reportTableName(IMPORT_ID)}`)),
    'ingest-staged-partitions': importStatement(stagedPartitionsSql(`cost_insights.${IMPORT_ID}`)), // the staging table is the import's id
    // One anomaly of a value and one of (not set)'s series.
    'anomaly-root-causes-by-service': buildRootCausesQuery(
      TABLE,
      rootCauses({
        monitoredValues: ['AmazonEC2', '(not set)'],
        anomalies: [
          { value: 'AmazonEC2', start: '2026-11-20', end: '2026-11-20' },
          { value: '(not set)', start: '2026-11-21', end: '2026-11-21' },
        ],
      }),
    ),
  };
}

/** A statement as ClickHouse formats it, under a header naming its parameters. */
export function goldenText(name: string, compiled: CompiledSql, format: (sql: string) => string): string {
  const parameters = Object.entries(compiled.params).map(([key, value]) => `--   ${key} = ${JSON.stringify(value)}`);
  return [
    `-- ${name}: written by npm run queries:golden (scripts/golden-sql.ts); do not edit.`,
    '-- parameters:',
    ...parameters,
    format(compiled.sql).trimEnd(),
    '',
  ].join('\n');
}

/** ClickHouse's formatQuery, run by the embedded engine in this process. */
export function clickhouseFormat(sql: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an optional dependency, loaded only here
  const { query } = require('chdb') as { query: (sql: string, format: string) => string };
  const literal = `'${sql.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return query(`SELECT formatQuery(${literal})`, 'TSVRaw');
}

async function writeGoldenFiles(): Promise<void> {
  for (const file of readdirSync(QUERIES_DIR).filter((name) => name.endsWith('.sql'))) rmSync(join(QUERIES_DIR, file));
  for (const [name, compiled] of Object.entries(goldenStatements())) {
    writeFileSync(join(QUERIES_DIR, `${name}.sql`), goldenText(name, compiled, clickhouseFormat));
  }
  for (const [name, statements] of Object.entries(await recordedStatements())) {
    writeFileSync(join(QUERIES_DIR, `${name}.sql`), recordedText(name, statements, clickhouseFormat));
  }
}

if (require.main === module) void writeGoldenFiles();
