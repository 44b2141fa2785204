/**
 * The measured questions: the API request, and the same question in PostgreSQL SQL (what a user would
 * otherwise write: for /data the items and the totals as two statements run concurrently — on 2 cores as fast as
 * PostgreSQL's GROUPING SETS in one; the API sends ClickHouse one statement per request).
 */
import { MEASURE_COLUMNS, SAVINGS_SOURCES } from '../../src/cost-query/metrics';
import { addDays, todayUtc } from '../../src/common/dates/calendar-date';
import { FORECAST_LIMITS } from '../../src/forecasts/forecast-limits';
import { DAYS, FIRST_DAY, MEASURED_ORGANIZATION, PG_TABLE } from './estate';

export interface BenchCase {
  name: string;
  path: string;
  body: unknown;
  postgres: string[];
}

const ORG = `organization_id = '${MEASURED_ORGANIZATION}'`;
const MONEY = MEASURE_COLUMNS;
const SUMS = [...MONEY.map((m) => `sum(${m}) AS sum_${m}`), `sum(${SAVINGS_SOURCES.join(' + ')}) AS sum_total_savings`].join(', ');
const between = (start: string, end: string) => `usage_date BETWEEN '${start}' AND '${end}'`;
const notSet = (expression: string) => `coalesce(nullif(${expression}, ''), '(not set)')`;

function dataCase(name: string, body: Record<string, unknown>, bucket: string, dims: string[], where: string): BenchCase {
  const groupCols = [bucket, ...dims].map((_, i) => String(i + 1)).join(', ');
  const select = [`${bucket} AS bucket_start`, ...dims.map((d, i) => `${d} AS dim_${i}`)].join(', ');
  return {
    name,
    path: '/v1/cost-insights/data',
    body,
    postgres: [
      `SELECT ${select}, ${SUMS} FROM ${PG_TABLE} WHERE ${ORG} AND ${where} GROUP BY ${groupCols} ORDER BY ${groupCols} LIMIT 50001`,
      `SELECT ${SUMS} FROM ${PG_TABLE} WHERE ${ORG} AND ${where}`,
    ],
  };
}

const month = "date_trunc('month', usage_date)::date";
const day = 'usage_date';

export const CASES: BenchCase[] = [
  dataCase(
    'daily-by-service, 30 days',
    {
      groupBy: { dateGrouping: 'daily', dimension: 'service' },
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-30' } } },
    },
    day,
    [notSet('service')],
    between('2026-10-01', '2026-10-30'),
  ),
  dataCase(
    'monthly-by-account, 12 months',
    {
      groupBy: { dateGrouping: 'monthly', dimension: 'account' },
      filters: { inclusions: { dateRange: { start: '2025-11-01', end: '2026-10-31' } } },
    },
    month,
    [notSet('account_id')],
    between('2025-11-01', '2026-10-31'),
  ),
  dataCase(
    'tag:team grouping, tag filter + exclusions, 3 months',
    {
      groupBy: { dateGrouping: 'monthly', dimension: 'tag:team' },
      filters: {
        inclusions: {
          dateRange: { start: '2026-08-01', end: '2026-10-31' },
          resourceTag: 'env',
          resourceTagValues: ['production', 'staging'],
        },
        exclusions: { services: ['AWS Service 00', 'AWS Service 01'], regions: ['aws-region-0'] },
      },
    },
    month,
    [notSet("resource_tags->>'team'")],
    `${between('2026-08-01', '2026-10-31')} AND (resource_tags @> '{"env":"production"}' OR resource_tags @> '{"env":"staging"}')` +
      ` AND service NOT IN ('AWS Service 00', 'AWS Service 01') AND region NOT IN ('aws-region-0')`,
  ),
  dataCase(
    'cloud × service × region, monthly, 3 months',
    {
      groupBy: { dateGrouping: 'monthly', dimensions: ['cloud', 'service', 'region'] },
      filters: { inclusions: { dateRange: { start: '2026-08-01', end: '2026-10-31' } } },
    },
    month,
    [notSet('cloud'), notSet('service'), notSet('region')],
    between('2026-08-01', '2026-10-31'),
  ),
  {
    name: '/compare month over month by service',
    path: '/v1/cost-insights/compare',
    body: {
      metric: 'amortized_cost',
      baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
      comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
      groupBy: { dimension: 'service', dateGrouping: 'monthly' },
    },
    postgres: [
      `SELECT CASE WHEN usage_date <= '2026-09-30' THEN 0 ELSE 1 END AS side, ${month} AS bucket_start, ${notSet('service')} AS dim,
              sum(amortized_cost) AS metric_value
       FROM ${PG_TABLE} WHERE ${ORG} AND ${between('2026-09-01', '2026-10-31')}
       GROUP BY GROUPING SETS ((1, 2, 3), (1, 3), (1))`,
    ],
  },
  {
    name: '/filters, cross-filtered (5 fields)',
    path: '/v1/cost-insights/filters',
    body: {
      fields: ['services', 'regions', 'accounts', 'instanceTypes', 'usageTypes'],
      filters: {
        inclusions: {
          dateRange: { start: '2026-10-01', end: '2026-10-31' },
          clouds: ['AWS'],
          services: ['AWS Service 03', 'AWS Service 04'],
        },
      },
    },
    postgres: [
      ['service', 'region', 'account_id', 'instance_type', 'usage_type']
        .map((column) => {
          const services = column === 'service' ? '' : ` AND service IN ('AWS Service 03', 'AWS Service 04')`;
          const name = column === 'account_id' ? `(array_agg(account_name ORDER BY usage_date DESC))[1]` : `''`;
          return `(SELECT '${column}' AS field, ${column} AS value, ${name} AS name, sum(amortized_cost) AS sum_amortized_cost
                   FROM ${PG_TABLE} WHERE ${ORG} AND ${between('2026-10-01', '2026-10-31')} AND cloud IN ('AWS')${services}
                   GROUP BY ${column} ORDER BY sum_amortized_cost DESC, value LIMIT 10000)`;
        })
        .join('\nUNION ALL\n'),
    ],
  },
];

/** The case measured raw vs projection (the 12-month monthly case). */
export const PROJECTION_CASE = CASES[1].name;

/**
 * Issue 23: the same question asked by a tag (or cost category) and by a column dimension, same period and date
 * grouping: the tag's cost over the column's, measured on the API in alternation (target ≤ 1.5).
 */
export interface TagPair {
  name: string;
  path: string;
  tag: unknown;
  column: unknown;
}

const THIRTY_DAYS = { start: '2026-10-01', end: '2026-10-30' };
const TWELVE_MONTHS = { start: '2025-11-01', end: '2026-10-31' };
const THREE_MONTHS = { start: '2026-08-01', end: '2026-10-31' };
const DATA = '/v1/cost-insights/data';
const byDimension = (dateGrouping: string, dateRange: object, dimension: string) => ({
  groupBy: { dateGrouping, dimension },
  filters: { inclusions: { dateRange } },
});

export const TAG_PAIRS: TagPair[] = [
  {
    name: 'daily, 30 days: tag:team vs service',
    path: DATA,
    tag: byDimension('daily', THIRTY_DAYS, 'tag:team'),
    column: byDimension('daily', THIRTY_DAYS, 'service'),
  },
  {
    name: 'monthly, 12 months: tag:team vs service',
    path: DATA,
    tag: byDimension('monthly', TWELVE_MONTHS, 'tag:team'),
    column: byDimension('monthly', TWELVE_MONTHS, 'service'),
  },
  {
    name: 'monthly, 12 months: costCategory:Project vs account',
    path: DATA,
    tag: byDimension('monthly', TWELVE_MONTHS, 'costCategory:Project'),
    column: byDimension('monthly', TWELVE_MONTHS, 'account'),
  },
  {
    name: 'a tag filter vs a column filter, grouped by service, 3 months',
    path: DATA,
    tag: {
      groupBy: { dateGrouping: 'monthly', dimension: 'service' },
      filters: { inclusions: { dateRange: THREE_MONTHS, resourceTag: 'env', resourceTagValues: ['production'] } },
    },
    column: {
      groupBy: { dateGrouping: 'monthly', dimension: 'service' },
      filters: { inclusions: { dateRange: THREE_MONTHS, clouds: ['AWS'] } },
    },
  },
  {
    name: 'cloud × service × tag:team vs cloud × service × region, monthly, 3 months',
    path: DATA,
    tag: {
      groupBy: { dateGrouping: 'monthly', dimensions: ['cloud', 'service', 'tag:team'] },
      filters: { inclusions: { dateRange: THREE_MONTHS } },
    },
    column: {
      groupBy: { dateGrouping: 'monthly', dimensions: ['cloud', 'service', 'region'] },
      filters: { inclusions: { dateRange: THREE_MONTHS } },
    },
  },
  {
    name: '/compare month over month: by tag:team vs by service',
    path: '/v1/cost-insights/compare',
    tag: {
      metric: 'amortized_cost',
      baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
      comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
      groupBy: { dimension: 'tag:team', dateGrouping: 'monthly' },
    },
    column: {
      metric: 'amortized_cost',
      baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
      comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
      groupBy: { dimension: 'service', dateGrouping: 'monthly' },
    },
  },
  {
    name: '/filters (5 fields): under a tag filter vs under a column filter',
    path: '/v1/cost-insights/filters',
    tag: {
      fields: ['services', 'regions', 'accounts', 'instanceTypes', 'usageTypes'],
      filters: {
        inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' }, resourceTag: 'env', resourceTagValues: ['production'] },
      },
    },
    column: {
      fields: ['services', 'regions', 'accounts', 'instanceTypes', 'usageTypes'],
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' }, clouds: ['AWS'] } },
    },
  },
];

/**
 * Issue 34: the keys the measured organisation activates before TAG_PAIRS are measured again (tag-activated ÷ column,
 * target ≤ 1.3): every key the pairs name (ACTIVATED_KEYS_NAMED checks it), plus the estate's app tag — the keys an
 * organisation would group by; never resource_id, the one per resource that keeps the full-map projections large.
 */
export const ACTIVATED_KEYS = { tag: ['env', 'team', 'app'], costCategory: ['Project'] };

/** Every tag and cost-category key a request body names (groupings `tag:…`/`costCategory:…`, filters resourceTag/costCategory). */
export function keysNamed(body: unknown): { tag: string[]; costCategory: string[] } {
  const named = { tag: new Set<string>(), costCategory: new Set<string>() };
  const visit = (value: unknown, field?: string): void => {
    if (typeof value === 'string') {
      const dimension = /^(tag|costCategory):(.+)$/.exec(value);
      if (dimension) named[dimension[1] as 'tag' | 'costCategory'].add(dimension[2]);
      else if (field === 'resourceTag') named.tag.add(value);
      else if (field === 'costCategory') named.costCategory.add(value);
    } else if (Array.isArray(value)) value.forEach((item) => visit(item));
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) visit(item, key);
  };
  visit(body);
  return { tag: [...named.tag].sort(), costCategory: [...named.costCategory].sort() };
}

/** Issue 23: the 12-month monthly tag question, raw line items vs the tag projection (target ≥ 10× at 30M line items). */
export const TAG_PROJECTION_CASE = {
  name: 'monthly-by-tag:team, 12 months',
  path: DATA,
  body: byDimension('monthly', TWELVE_MONTHS, 'tag:team'),
};

/**
 * Issue 29: the same question of an organisation whose Azure costs are billed in EUR (converted at each day's rate
 * into USD) and of its twin whose rows are all USD (nothing to convert): converted ÷ unconverted (API p50, target
 * ≤ 1.15). The twin is a copy of the measured organisation (run.ts), so both read the same rows.
 */
export const CONVERSION_CASES = [CASES[0], CASES[1]];

/**
 * Issue 32: a forecast and an anomaly scan, each against the /data question that reads the same days (target ≤ 2×,
 * API p50). The forecast's history ends yesterday, whenever the bench runs; the scan covers the estate's last 12 months.
 */
export function insightCases(
  today = todayUtc(),
): Array<{ name: string; insight: { path: string; body: unknown }; data: { path: string; body: unknown } }> {
  const yesterday = addDays(today, -1);
  const history = { start: addDays(yesterday, -(FORECAST_LIMITS.historyDays - 1)), end: yesterday };
  const lastDay = addDays(FIRST_DAY, DAYS - 1);
  const twelveMonths = { start: addDays(lastDay, -364), end: lastDay };
  return [
    {
      name: `forecast, ${FORECAST_LIMITS.historyDays} days of history`,
      insight: { path: '/v1/cost-insights/forecast', body: { forecastEnd: addDays(yesterday, 30) } },
      data: { path: DATA, body: { groupBy: { dateGrouping: 'daily' }, filters: { inclusions: { dateRange: history } } } },
    },
    {
      name: 'anomaly scan by service, 12 months',
      insight: { path: '/v1/cost-insights/anomalies', body: { dateRange: twelveMonths } },
      data: { path: DATA, body: byDimension('daily', twelveMonths, 'service') },
    },
  ];
}
