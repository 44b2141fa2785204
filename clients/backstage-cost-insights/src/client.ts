import type { Cost, DateAggregation, Entity, Group, Maybe, MetricData, Project } from '@backstage/plugin-cost-insights-common';
import { addDays, DateRange, daysOf, isoDate, parseIntervals, ParsedIntervals } from './intervals';
import { changeBetween, changeOf, dailyAggregation, trendlineOf } from './statistics';

/** The options of the plugin's getProductInsights (as `ProductInsightsOptions` of @backstage/plugin-cost-insights). */
export interface ProductInsightsOptions {
  product: string;
  group: string;
  intervals: string;
  project: Maybe<string>;
}

/** FilterFields of the Cost Insights API (see its Swagger): lists of values, a tag or cost category key, a dateRange. */
export type FilterFields = { [field: string]: string[] | string | DateRange | null | undefined };

/** What a Backstage group is: the values of one resource tag key, or of one cost category key (one team each). */
export type GroupKey = { tag: string } | { costCategory: string };

/** A cost money metric of the API's /data items. */
export type CostMetric = 'amortized_cost' | 'billed_cost' | 'cash_cost' | 'on_demand_cost';

/**
 * Daily series that getDailyMetricData can answer: the API's money metrics, organisation-wide. This package stands
 * alone, so it keeps its own copy; src/cost-query/one-definition.spec.ts holds it against the service's metrics table.
 */
export const DAILY_METRICS = [
  'amortized_cost',
  'billed_cost',
  'cash_cost',
  'on_demand_cost',
  'total_savings',
  'enterprise_discount_savings',
  'product_discount_savings',
  'partner_discount_savings',
  'commitment_savings',
  'spot_savings',
  'other_savings',
] as const;

export interface ProductConfiguration {
  /** Filters that select the product's cost, e.g. `{ services: ['Amazon EC2'] }`. Default: `{ services: [<product>] }`. */
  filters?: FilterFields;
  /** The dimension its entities are broken down by, e.g. `usageType`, `region`, `tag:app`. Default: `account` (`usageType` for one project). */
  breakdown?: string;
  /**
   * A business metric (its name, e.g. `orders`) whose unit cost getProductInsights adds as a second breakdown: the
   * product's cost per unit in each period, e.g. `cost per 1,000 orders`. Default none.
   */
  unitCost?: { metric: string };
}

export interface CostInsightsClientOptions {
  /**
   * Where the API (its `/v1`) is reached: in a Backstage app the backend proxy, which adds the API key,
   * e.g. `() => discoveryApi.getBaseUrl('proxy').then((proxy) => `${proxy}/cost-insights`)`.
   */
  baseUrl: string | (() => Promise<string>);
  /** Backstage's `fetchApi.fetch` (sends the Backstage identity the proxy requires). Default: the global fetch. */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  /** The tag or cost category whose values are the groups (teams), e.g. `{ tag: 'team' }`. */
  groups: GroupKey;
  /** The groups a user belongs to, e.g. from the catalog. Default: every group (every value of the key). */
  userGroups?: (userId: string, allGroups: Group[]) => Group[] | Promise<Group[]>;
  /** getCatalogEntityDailyCost: the tag whose value names a catalog entity, and whether that value is the entity's name (default) or its full ref. */
  catalogEntity?: { tag: string; value?: 'name' | 'ref' };
  /** getProductInsights: per product of app-config's `costInsights.products`, the filters and breakdown. */
  products?: Record<string, ProductConfiguration>;
  /** The money metric shown as cost. Default `amortized_cost`. */
  metric?: CostMetric;
  /**
   * The currency (ISO 4217) the plugin shows costs in — the code of app-config's `costInsights.currencies` entry the
   * app formats with, e.g. `EUR`: every cost request asks for it, so costs billed in other currencies arrive
   * converted by the API at each day's rate. Default: the organisation's reporting currency (USD unless set).
   */
  currency?: string;
  /** getGroupProjects: the days of cost looked at for a group's accounts. Default 180. */
  projectWindowDays?: number;
  /**
   * getAlerts: where an anomaly alert's button leads, e.g. a dashboard of the group's costs. Default none (no button): the
   * API has no page a browser could open for an anomaly.
   */
  anomalyUrl?: (anomaly: AnomalyAnswer, group: string) => string | undefined;
  /** getAlerts: a commitment the group uses is under-utilised below this fraction over the last 7 days. Default 0.8. */
  utilizationAlertThreshold?: number;
  /**
   * getAlerts: business metrics (their names, e.g. `orders`) whose unit cost is watched per group: an alert when the
   * group's cost per unit rose more than `unitCostAlertRatio` over the last 7 complete days against the 7 before while
   * the units grew (waste, not growth). Default none.
   */
  unitCostMetrics?: string[];
  /** getAlerts: the week-over-week rise of a unit cost that is an alert. Default 0.1 (10 %). */
  unitCostAlertRatio?: number;
  /** Today's date, YYYY-MM-DD (UTC); for tests. */
  today?: () => string;
}

/** The API routes whose answers are money in one currency (they take `currency`). */
const MONEY_ROUTES = new Set(['data', 'compare', 'filters', 'forecast', 'anomalies', 'commitments']);

/** A unit cost rising more than this fraction week over week, while units grow, is an alert (option unitCostAlertRatio). */
export const UNIT_COST_ALERT_RATIO = 0.1;

/** A growth alert fires when this month is forecast at least this ratio of last month (and surely above it). */
export const GROWTH_ALERT_RATIO = 1.1;

/** Anomaly alerts cover the anomalies that began in this many complete days before today. */
export const ANOMALY_ALERT_DAYS = 7;

/** Root causes an anomaly alert names (the API's first). */
export const ANOMALY_ALERT_ROOT_CAUSES = 3;

/** Utilisation alerts look at commitments over this many complete days before today. */
export const UTILIZATION_ALERT_DAYS = 7;

/** A commitment used less than this fraction of what it committed is an alert (the option utilizationAlertThreshold). */
export const UTILIZATION_ALERT_THRESHOLD = 0.8;

/** An alert as the plugin shows it (its `Alert`, whose title and subtitle may be text; `url` makes a button). */
export interface CostAlert {
  title: string;
  subtitle: string;
  url?: string;
}

/** The growth alert's shape (every alert of getAlerts is a CostAlert). */
export type GrowthAlert = CostAlert;

/** One anomaly of a POST /anomalies answer. */
export interface AnomalyAnswer {
  id: string;
  start: string;
  end: string;
  dimension_value: string;
  expected: number;
  actual: number;
  impact: number;
  impactPercentage: number | null;
  score: number;
  rootCauses: Array<{ dimension: string; value: string; contribution: number }>;
  feedback: string | null;
}

/** What getAlerts reads of a /anomalies answer. */
interface AnomaliesAnswer {
  currency: string;
  dimension: string;
  anomalies: AnomalyAnswer[];
}

/** What getAlerts reads of a /forecast answer. */
interface ForecastAnswer {
  currency: string;
  prediction_interval_level: number;
  series: Array<{
    current_month: { month: string; actual: number; mean: number; lower: number; upper: number };
    accuracy: { backtest: { mape: number | null } };
  }>;
}

/** What getAlerts reads of a /commitments answer. */
interface CommitmentsAnswer {
  currency: string;
  commitments: Array<{
    commitment_discount_id: string;
    name: string;
    type: string;
    provider: string;
    used_cost: number;
    unused_cost: number;
    utilization: number;
  }>;
}

/**
 * What getDailyMetricData (each day's units), getAlerts (cost and units) and getProductInsights (the whole window's unit
 * cost, null without units) read of a /unit-costs answer: exact decimal text.
 */
interface UnitCostsAnswer {
  unit: string;
  unit_scale: number;
  currency: string;
  summary: { cost: string; units: string; unit_cost: string | null };
  items: Array<{ usage_date: string; cost: string; units: string }>;
}

/** What getAlerts reads of a /budgets answer. */
interface BudgetsAnswer {
  budgets: Array<{
    name: string;
    currency: string;
    filters?: { inclusions?: FilterFields };
    period: { label: string; start: string; end: string };
    amount: number | null;
    actual: number;
    percent_used: number | null;
    prorated_amount: number | null;
    forecast: { mean: number; lower: number; upper: number } | null;
    thresholds: Array<{ kind: 'actual' | 'forecast'; percent: number; amount: number; state: string; crossing_date?: string | null }>;
  }>;
}

/** Whether a budget's inclusions hold the group's own filter: the same key, the group among its values. */
function includesGroup(inclusions: FilterFields, group: FilterFields): boolean {
  const [key, values] = group.resourceTag !== undefined ? ['resourceTag', 'resourceTagValues'] : ['costCategory', 'costCategoryValues'];
  const listed = (fields: FilterFields) => (Array.isArray(fields[values]) ? (fields[values] as string[]) : []);
  return inclusions[key] === group[key] && listed(inclusions).some((value) => listed(group).includes(value));
}

/** A refused or failed request, with the API's status and message. */
export class CostInsightsApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The API's refusal of a metric it has no business metric of (400 naming it, or a name no business metric can have),
 * or an API older than /unit-costs (404): the plugin then gets an empty series, as before business metrics.
 */
function isUnknownBusinessMetric(error: unknown): boolean {
  if (!(error instanceof CostInsightsApiError)) return false;
  return error.status === 404 || (error.status === 400 && /no business metric|expected a business metric name/.test(error.message));
}

/** Rows without a value for a dimension come back under this label; the plugin's entities call them `null`. */
const NOT_SET = '(not set)';

interface DataItem {
  usage_date: string;
  dimension_value?: string;
  [metric: string]: unknown;
}

interface Comparison {
  comparisons: Array<{ dimension_value: string; baseline: { total: number }; comparison: { total: number } }>;
  totals: { baseline: number; comparison: number };
}

/**
 * `CostInsightsApi` of @backstage/plugin-cost-insights over the Cost Insights Public API v1. Plain `fetch`, no
 * React and no other runtime dependency. The API key is not here: the Backstage backend proxy adds it (docs/backstage.md).
 */
export class CostInsightsApiClient {
  private readonly fetch: (input: string, init?: RequestInit) => Promise<Response>;
  private readonly metric: CostMetric;

  constructor(private readonly options: CostInsightsClientOptions) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.metric = options.metric ?? 'amortized_cost';
  }

  /**
   * The last day with cost data for the organisation, never today or later (today's costs are incomplete).
   * Freshness: the API's `X-Data-Through` response header (on every cost answer); from an API too old to
   * send it, the last day with cost in a /data answer.
   */
  async getLastCompleteBillingDate(): Promise<string> {
    const today = this.today();
    const yesterday = addDays(today, -1);
    const recent = { start: addDays(today, -92), end: today };
    const { body, headers } = await this.post<{ items: DataItem[] }>('data', {
      filters: { inclusions: { dateRange: recent } },
      groupBy: { dateGrouping: 'daily' },
    });
    // The API's own statement of the data's last day, whatever the window asked about.
    const dataThrough = headers.get('X-Data-Through');
    let lastDay = dataThrough && /^\d{4}-\d{2}-\d{2}$/.test(dataThrough) ? dataThrough : lastDayWithCost(body.items);
    if (!lastDay && !dataThrough) lastDay = await this.lastDayWithCostBefore(recent.start);
    if (!lastDay) return yesterday; // no data at all: the plugin still needs a date
    return lastDay < yesterday ? lastDay : yesterday;
  }

  /** Every value of the group key (all time), narrowed to the user's groups when `userGroups` is configured. */
  async getUserGroups(userId: string): Promise<Group[]> {
    // VALUE PAGING (issue 20 item 2): /tag-values gains limit/cursor; one page of up to 10,000 values until then.
    const groupKey = this.options.groups;
    const { body } = await ('tag' in groupKey
      ? this.post<{ values: string[] }>('tag-values', { tagKey: groupKey.tag })
      : this.post<{ values: string[] }>('cost-category-values', { categoryKey: groupKey.costCategory }));
    const all = body.values.map((value) => ({ id: value, name: value }));
    return this.options.userGroups ? this.options.userGroups(userId, all) : all;
  }

  /** The accounts with cost for the group in the last `projectWindowDays` days, with their names. */
  async getGroupProjects(group: string): Promise<Project[]> {
    const today = this.today();
    const { body } = await this.post<{ accounts: string[]; accountIdToName: Record<string, string> }>('filters', {
      fields: ['accounts'],
      filters: {
        inclusions: {
          dateRange: { start: addDays(today, -(this.options.projectWindowDays ?? 180)), end: today },
          ...this.groupFilter(group),
        },
      },
    });
    return body.accounts
      .filter((id) => id !== NOT_SET)
      .map((id) => (body.accountIdToName[id] ? { id, name: body.accountIdToName[id] } : { id }));
  }

  /** The group's daily cost over the intervals, with change, trendline and breakdowns by service and by account. */
  async getGroupDailyCost(group: string, intervals: string): Promise<Cost> {
    return this.dailyCost(group, this.groupFilter(group), intervals, ['service', 'account']);
  }

  /** One account's daily cost over the intervals, with change, trendline and a breakdown by service. */
  async getProjectDailyCost(project: string, intervals: string): Promise<Cost> {
    return this.dailyCost(project, { accountIds: [project] }, intervals, ['service']);
  }

  /**
   * A catalog entity's daily cost: the rows whose `catalogEntity.tag` holds the entity's name (or ref), e.g.
   * tag `component` = `my-service` for `component:default/my-service`. Without that option it refuses with why.
   */
  async getCatalogEntityDailyCost(catalogEntityRef: string, intervals: string): Promise<Cost> {
    const entity = this.options.catalogEntity;
    if (!entity) {
      throw new Error('getCatalogEntityDailyCost needs the catalogEntity option: the tag whose value names a catalog entity');
    }
    const value = entity.value === 'ref' ? catalogEntityRef : entityName(catalogEntityRef);
    return this.dailyCost(catalogEntityRef, { resourceTag: entity.tag, resourceTagValues: [value] }, intervals, ['service', 'account']);
  }

  /**
   * An API money metric (amortized_cost, on_demand_cost, total_savings, …) for the whole organisation, or any other
   * name as a business metric of the organisation (orders, active customers: its daily units from /unit-costs), so
   * the plugin can set a team's cost trend against it. A metric the API does not know, or an API without
   * /unit-costs, gives an empty series, not an error.
   */
  async getDailyMetricData(metric: string, intervals: string): Promise<MetricData> {
    const parsed = parseIntervals(intervals);
    if (!(DAILY_METRICS as readonly string[]).includes(metric)) return this.businessMetricData(metric, parsed);
    const items = await this.items({ dateRange: parsed.window }, undefined);
    const aggregation = dailyAggregation(daysOf(parsed.window), sumByDate(items, metric));
    return { id: metric, format: 'currency', aggregation, change: changeBetween(aggregation, parsed.intervals) ?? { amount: 0 } };
  }

  /**
   * The product's cost in the last two intervals (the plugin asks month against month or quarter against quarter),
   * for the group and optionally one project, broken down by the product's breakdown dimension, from /compare; and,
   * for a product with a `unitCost` metric, its cost per unit in the same two periods as a second breakdown.
   */
  async getProductInsights(options: ProductInsightsOptions): Promise<Entity> {
    const parsed = parseIntervals(options.intervals);
    const [baselinePeriod, comparisonPeriod] = lastTwo(parsed);
    const product = this.options.products?.[options.product] ?? {};
    const breakdown = product.breakdown ?? (options.project ? 'usageType' : 'account');
    const inclusions: FilterFields = {
      ...(product.filters ?? { services: [options.product] }),
      ...this.groupFilter(options.group),
      ...(options.project ? { accountIds: [options.project] } : {}),
    };
    const [{ body }, unitCost] = await Promise.all([
      this.post<Comparison>('compare', {
        baselinePeriod,
        comparisonPeriod,
        metric: this.metric,
        groupBy: { dimension: breakdown, dateGrouping: 'monthly' },
        filters: { inclusions },
      }),
      product.unitCost
        ? this.unitCostBreakdown(options.product, product.unitCost.metric, inclusions, [baselinePeriod, comparisonPeriod])
        : {},
    ]);
    return {
      id: options.product,
      aggregation: [body.totals.baseline, body.totals.comparison],
      change: changeOf(body.totals.baseline, body.totals.comparison),
      entities: {
        [breakdown]: body.comparisons.map((row) => ({
          id: row.dimension_value === NOT_SET ? null : row.dimension_value,
          aggregation: [row.baseline.total, row.comparison.total] as [number, number],
          change: changeOf(row.baseline.total, row.comparison.total),
          entities: {},
        })),
        // Second: the plugin's product card draws only the first breakdown (its chart, its "n accounts" subheader),
        // which stays the cost's.
        ...unitCost,
      },
    };
  }

  /**
   * The group's alerts: its growth alert (if any), then its anomaly alerts, newest first. Title and subtitle are text
   * (this client renders no React).
   */
  async getAlerts(group: string): Promise<CostAlert[]> {
    const [growth, anomalies, utilization, budgets, unitCosts] = await Promise.all([
      this.growthAlerts(group),
      this.anomalyAlerts(group),
      this.utilizationAlerts(group),
      this.budgetAlerts(group),
      Promise.all((this.options.unitCostMetrics ?? []).map((metric) => this.unitCostAlert(group, metric))),
    ]);
    return [...growth, ...anomalies, ...utilization, ...budgets, ...unitCosts.flat()];
  }

  // ---- internals ----

  /**
   * Growth alerts: the group's forecast of this month (POST /forecast) against last month's actual amount, per day.
   * An alert when the month is expected at least GROWTH_ALERT_RATIO above last month and even its interval's lower end
   * is above it; none when the group has too little history to forecast (the API's 400).
   */
  private async growthAlerts(group: string): Promise<CostAlert[]> {
    const today = this.today();
    const month = `${today.slice(0, 7)}-01`;
    const monthEnd = addDays(`${addDays(month, 32).slice(0, 7)}-01`, -1);
    const previousMonth = `${addDays(month, -1).slice(0, 7)}-01`;
    const inclusions = this.groupFilter(group);
    const forecast = await this.post<ForecastAnswer>('forecast', {
      forecastEnd: monthEnd,
      metric: this.metric,
      filters: { inclusions },
    }).catch((error: unknown) => {
      if (error instanceof CostInsightsApiError && error.status === 400) return undefined;
      throw error;
    });
    const current = forecast?.body.series[0];
    if (!forecast || !current) return [];
    const { body } = await this.post<{ summary: Record<string, number> }>('data', {
      filters: { inclusions: { ...inclusions, dateRange: { start: previousMonth, end: addDays(month, -1) } } },
      groupBy: { dateGrouping: 'monthly' },
    });
    const last = body.summary[`total_${this.metric}`] ?? 0;
    const { mean, lower, upper } = current.current_month;
    // Per day, so a longer month is no growth: this month's days over last month's.
    const days = (first: string, next: string) =>
      Math.round((Date.parse(`${next}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000);
    const lastAtThisLength = (last * days(month, addDays(monthEnd, 1))) / days(previousMonth, month);
    if (!(last > 0 && lower > lastAtThisLength && mean >= lastAtThisLength * GROWTH_ALERT_RATIO)) return [];
    const money = (amount: number) => `${amount.toFixed(2)} ${forecast.body.currency}`;
    const mape = current.accuracy.backtest.mape;
    return [
      {
        title: `${group}: ${current.current_month.month} is forecast ${Math.round((mean / lastAtThisLength - 1) * 100)} % above last month, day for day`,
        subtitle:
          `Expected ${money(mean)} (${forecast.body.prediction_interval_level} % interval ${money(lower)} to ${money(upper)}), ` +
          `${money(last)} last month.` +
          (mape === null ? '' : ` On its own history the forecast missed 7-day totals by ${(mape * 100).toFixed(1)} % on average.`),
      },
    ];
  }

  /**
   * Anomaly alerts: the group's anomalies (POST /anomalies, the API's default dimension and thresholds) that began in
   * the last ANOMALY_ALERT_DAYS complete days, one alert each. An API older than its anomalies (404) has none.
   */
  private async anomalyAlerts(group: string): Promise<CostAlert[]> {
    const today = this.today();
    const answer = await this.post<AnomaliesAnswer>('anomalies', {
      dateRange: { start: addDays(today, -ANOMALY_ALERT_DAYS), end: addDays(today, -1) },
      filters: { inclusions: this.groupFilter(group) },
    }).catch((error: unknown) => {
      if (error instanceof CostInsightsApiError && error.status === 404) return undefined;
      throw error;
    });
    if (!answer) return [];
    const { currency, dimension, anomalies } = answer.body;
    const money = (amount: number) => `${amount.toFixed(2)} ${currency}`;
    return anomalies.map((anomaly) => {
      const days = anomaly.start === anomaly.end ? `on ${anomaly.start}` : `from ${anomaly.start} to ${anomaly.end}`;
      // Nothing expected (a new cost): no percentage, and the score only says "infinitely unusual".
      const against =
        anomaly.impactPercentage === null
          ? `${money(anomaly.actual)} where nothing was expected`
          : `${money(anomaly.actual)} against ${money(anomaly.expected)} expected (+${Math.round(anomaly.impactPercentage)} %, robust z-score ${anomaly.score})`;
      const causes = anomaly.rootCauses
        .slice(0, ANOMALY_ALERT_ROOT_CAUSES)
        .map((cause) => `${cause.dimension} ${cause.value} +${money(cause.contribution)}`);
      const url = this.options.anomalyUrl?.(anomaly, group);
      return {
        title: `${group}: ${dimension} ${anomaly.dimension_value} cost ${money(anomaly.impact)} above expected ${days}`,
        subtitle:
          `${against}.` +
          (causes.length ? ` What moved: ${causes.join(', ')}.` : '') +
          (anomaly.feedback ? ` Feedback: ${anomaly.feedback}.` : '') +
          ` Anomaly ${anomaly.id}.`,
        ...(url ? { url } : {}),
      };
    });
  }

  private async dailyCost(
    id: string,
    inclusions: FilterFields,
    intervals: string,
    breakdowns: Array<'service' | 'account'>,
  ): Promise<Cost> {
    const parsed = parseIntervals(intervals);
    const days = daysOf(parsed.window);
    const filter = { ...inclusions, dateRange: parsed.window };
    const byDimension = await Promise.all(breakdowns.map((dimension) => this.items(filter, dimension)));
    // The total is the sum of the first breakdown (every row has a service, "(not set)" included).
    const aggregation = dailyAggregation(days, sumByDate(byDimension[0], this.metric));
    const groupedCosts: Record<string, Cost[]> = {};
    breakdowns.forEach((dimension, i) => {
      const perValue = new Map<string, DataItem[]>();
      for (const item of byDimension[i]) {
        const value = item.dimension_value ?? NOT_SET;
        perValue.set(value, [...(perValue.get(value) ?? []), item]);
      }
      groupedCosts[dimension] = [...perValue.entries()]
        .map(([value, items]) => costOf(value, dailyAggregation(days, sumByDate(items, this.metric)), parsed.intervals))
        .sort((a, b) => total(b.aggregation) - total(a.aggregation) || (a.id < b.id ? -1 : 1));
    });
    return { ...costOf(id, aggregation, parsed.intervals), groupedCosts };
  }

  /** A business metric's daily units over the intervals' window (every day, zero-filled), as a number series. */
  private async businessMetricData(metric: string, parsed: ParsedIntervals): Promise<MetricData> {
    // Only the units are read: no currency is asked for (a currency without rates would refuse the question).
    const answer = await this.post<UnitCostsAnswer>('unit-costs', {
      metric,
      filters: { inclusions: { dateRange: parsed.window } },
      groupBy: { dateGrouping: 'daily' },
    }).catch((error: unknown) => {
      if (isUnknownBusinessMetric(error)) return undefined;
      throw error;
    });
    if (!answer) return { id: metric, format: 'number', aggregation: [], change: { amount: 0 } };
    const aggregation = dailyAggregation(daysOf(parsed.window), sumByDate(answer.body.items, 'units'));
    return { id: metric, format: 'number', aggregation, change: changeBetween(aggregation, parsed.intervals) ?? { amount: 0 } };
  }

  /**
   * getProductInsights' unit cost: the product's cost over a business metric's units (POST /unit-costs with the same
   * inclusions as its /compare, one request per period), as a breakdown named for what it is per (`cost per order`,
   * `cost per 1,000 orders`) holding the product alone. Left out when either period had no units (the API's null): the
   * plugin shows numbers only, and a 0 would read as "free". Left out too for a metric the API does not know and
   * from an API without /unit-costs, as getDailyMetricData's empty series.
   */
  private async unitCostBreakdown(
    product: string,
    metric: string,
    inclusions: FilterFields,
    periods: [DateRange, DateRange],
  ): Promise<Record<string, Entity[]>> {
    const ask = (dateRange: DateRange) =>
      this.post<UnitCostsAnswer>('unit-costs', {
        ...(this.options.currency ? { currency: this.options.currency } : {}),
        metric,
        costMetric: this.metric,
        filters: { inclusions: { ...inclusions, dateRange } },
        // Only the summary (the whole period) is read: monthly buckets keep the items few.
        groupBy: { dateGrouping: 'monthly' },
      });
    const answers = await Promise.all(periods.map(ask)).catch((error: unknown) => {
      if (isUnknownBusinessMetric(error)) return undefined;
      throw error;
    });
    if (!answers) return {};
    const [baseline, comparison] = answers.map((answer) => answer.body.summary.unit_cost);
    if (baseline === null || comparison === null) return {};
    const [was, now] = [Number(baseline), Number(comparison)];
    const { unit, unit_scale } = answers[1].body;
    return {
      [`cost per ${perUnits(unit, unit_scale)}`]: [{ id: product, aggregation: [was, now], change: changeOf(was, now), entities: {} }],
    };
  }

  /** /data daily items for the filter, grouped by one dimension or none. */
  private async items(inclusions: FilterFields, dimension: string | undefined): Promise<DataItem[]> {
    const { body } = await this.post<{ items: DataItem[] }>('data', {
      filters: { inclusions },
      groupBy: { dateGrouping: 'daily', ...(dimension ? { dimension } : {}) },
    });
    return body.items;
  }

  /** Before the recent window: the last month with cost in the API's longest range, then its last day with cost. */
  private async lastDayWithCostBefore(end: string): Promise<string | undefined> {
    const span = { start: addDays(end, -1090), end: addDays(end, -1) };
    const { body } = await this.post<{ items: DataItem[] }>('data', {
      filters: { inclusions: { dateRange: span } },
      groupBy: { dateGrouping: 'monthly' },
    });
    const month = lastDayWithCost(body.items);
    if (!month) return undefined;
    const monthEnd = isoDate(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)));
    const range = { start: month < span.start ? span.start : month, end: monthEnd > span.end ? span.end : monthEnd };
    const daily = await this.post<{ items: DataItem[] }>('data', {
      filters: { inclusions: { dateRange: range } },
      groupBy: { dateGrouping: 'daily' },
    });
    return lastDayWithCost(daily.body.items);
  }

  /**
   * Utilisation alerts: a commitment discount whose discount the group's usage received in the last
   * UTILIZATION_ALERT_DAYS complete days, and which the organisation used below the threshold over them (a commitment is
   * the organisation's: its unused part belongs to no team). None from an API without /commitments (404).
   */
  private async utilizationAlerts(group: string): Promise<CostAlert[]> {
    const today = this.today();
    const dateRange = { start: addDays(today, -UTILIZATION_ALERT_DAYS), end: addDays(today, -1) };
    const ask = (inclusions: FilterFields) =>
      this.post<CommitmentsAnswer>('commitments', { filters: { inclusions: { ...inclusions, dateRange } } }).catch((error: unknown) => {
        if (error instanceof CostInsightsApiError && error.status === 404) return undefined;
        throw error;
      });
    const [ofGroup, ofOrganization] = await Promise.all([ask(this.groupFilter(group)), ask({})]);
    if (!ofGroup || !ofOrganization) return [];
    const used = new Set(ofGroup.body.commitments.filter((c) => c.used_cost > 0).map((c) => c.commitment_discount_id));
    const threshold = this.options.utilizationAlertThreshold ?? UTILIZATION_ALERT_THRESHOLD;
    const money = (amount: number) => `${amount.toFixed(2)} ${ofOrganization.body.currency}`;
    const percent = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;
    return ofOrganization.body.commitments
      .filter((c) => used.has(c.commitment_discount_id) && c.utilization < threshold)
      .map((c) => ({
        title: `${group}: ${c.name || c.commitment_discount_id} was used ${percent(c.utilization)} over the last ${UTILIZATION_ALERT_DAYS} days`,
        subtitle:
          `${money(c.unused_cost)} of ${money(c.used_cost + c.unused_cost)} committed went unused (below ${percent(threshold)}). ` +
          `${c.type} ${c.commitment_discount_id} (${c.provider}) discounts usage of ${group}.`,
      }));
  }

  /**
   * Budget alerts: each threshold breached (actual) or forecast to be (POST /budgets) of the group's budgets — those
   * whose filters include the group's own (its tag or cost-category value). An API without budgets (404) has none.
   */
  private async budgetAlerts(group: string): Promise<CostAlert[]> {
    const answer = await this.post<BudgetsAnswer>('budgets', {}).catch((error: unknown) => {
      if (error instanceof CostInsightsApiError && error.status === 404) return undefined;
      throw error;
    });
    if (!answer) return [];
    const own = this.groupFilter(group);
    const ofGroup = answer.body.budgets.filter((budget) => includesGroup(budget.filters?.inclusions ?? {}, own));
    return ofGroup.flatMap((budget) => {
      const money = (amount: number) => `${amount.toFixed(2)} ${budget.currency}`;
      const used = `${money(budget.actual)} of ${money(budget.amount ?? 0)} spent from ${budget.period.start} to date`;
      return budget.thresholds
        .filter((threshold) => threshold.state !== 'ok')
        .map((threshold) => ({
          title:
            threshold.kind === 'actual'
              ? `${group}: budget ${budget.name} passed ${threshold.percent} % (${money(threshold.amount)}) in ${budget.period.label}`
              : `${group}: budget ${budget.name} is forecast to pass ${threshold.percent} % (${money(threshold.amount)})` +
                (threshold.crossing_date ? ` on ${threshold.crossing_date}` : ` in ${budget.period.label}`),
          subtitle:
            `${used} (${budget.percent_used ?? 0} %; on track at ${money(budget.prorated_amount ?? 0)}).` +
            (budget.forecast
              ? ` Forecast at ${budget.period.end}: ${money(budget.forecast.mean)} (${money(budget.forecast.lower)} to ${money(budget.forecast.upper)}).`
              : ''),
        }));
    });
  }

  /**
   * A unit cost alert: the group's cost over a business metric's units (POST /unit-costs, daily) in the last 7 complete
   * days against the 7 before — when the cost per unit rose more than the ratio while the units grew. None for a metric
   * the API does not know (400) or an API without /unit-costs (404).
   */
  private async unitCostAlert(group: string, metric: string): Promise<CostAlert[]> {
    const today = this.today();
    const [start, end] = [addDays(today, -14), addDays(today, -1)];
    // The cost is money (the client's currency, when set); getDailyMetricData reads units only and sends none.
    const answer = await this.post<UnitCostsAnswer>('unit-costs', {
      ...(this.options.currency ? { currency: this.options.currency } : {}),
      metric,
      costMetric: this.metric,
      filters: { inclusions: { ...this.groupFilter(group), dateRange: { start, end } } },
      groupBy: { dateGrouping: 'daily' },
    }).catch((error: unknown) => {
      if (error instanceof CostInsightsApiError && (error.status === 400 || error.status === 404)) return undefined;
      throw error;
    });
    if (!answer) return [];
    const week = (first: string, last: string) =>
      answer.body.items
        .filter((item) => item.usage_date >= first && item.usage_date <= last)
        .reduce((sum, item) => ({ cost: sum.cost + Number(item.cost), units: sum.units + Number(item.units) }), { cost: 0, units: 0 });
    const [before, last] = [week(start, addDays(start, 6)), week(addDays(start, 7), end)];
    if (before.units <= 0 || before.cost <= 0 || last.units <= before.units) return [];
    const scale = answer.body.unit_scale;
    const [was, now] = [(before.cost / before.units) * scale, (last.cost / last.units) * scale];
    const ratio = this.options.unitCostAlertRatio ?? UNIT_COST_ALERT_RATIO;
    if (now <= was * (1 + ratio)) return [];
    const per = perUnits(answer.body.unit, scale);
    const money = (amount: number) => `${amount.toFixed(2)} ${answer.body.currency}`;
    const percent = (from: number, to: number) => `${Math.round((to / from - 1) * 100)} %`;
    return [
      {
        title: `${group}: cost per ${per} rose ${percent(was, now)} week over week while ${metric} grew ${percent(before.units, last.units)}`,
        subtitle: `${money(now)} per ${per} in the last 7 days (${addDays(start, 7)} to ${end}), ${money(was)} the 7 before: the cost grew faster than the business.`,
      },
    ];
  }

  private groupFilter(group: string): FilterFields {
    const key = this.options.groups;
    return 'tag' in key
      ? { resourceTag: key.tag, resourceTagValues: [group] }
      : { costCategory: key.costCategory, costCategoryValues: [group] };
  }

  private today(): string {
    return this.options.today?.() ?? isoDate(new Date());
  }

  private async baseUrl(): Promise<string> {
    const base = typeof this.options.baseUrl === 'string' ? this.options.baseUrl : await this.options.baseUrl();
    return base.replace(/\/+$/, '');
  }

  private async post<T>(path: string, body: object): Promise<{ body: T; headers: Headers }> {
    const base = await this.baseUrl();
    // The money routes take the currency; the value lists (tag-values, cost-category-values) have none to take.
    const currency = this.options.currency && MONEY_ROUTES.has(path) ? { currency: this.options.currency } : {};
    const response = await this.fetch(`${base}/cost-insights/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ ...body, ...currency }),
    });
    const text = await response.text();
    let parsed: { success?: boolean; data?: T; error?: { message?: string }; message?: string } | undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok || !parsed?.success) {
      const message = parsed?.error?.message ?? parsed?.message ?? text.slice(0, 200);
      throw new CostInsightsApiError(
        response.status,
        `Cost Insights API: POST /cost-insights/${path} answered ${response.status}: ${message}`,
      );
    }
    return { body: parsed.data as T, headers: response.headers };
  }
}

/** A Cost of a daily series: its change between the last two intervals (when there are two) and its trendline. */
function costOf(id: string, aggregation: DateAggregation[], intervals: DateRange[]): Cost {
  const change = changeBetween(aggregation, intervals);
  return { id, aggregation, ...(change ? { change } : {}), trendline: trendlineOf(aggregation) };
}

function lastTwo(parsed: ParsedIntervals): [DateRange, DateRange] {
  const { intervals } = parsed;
  if (intervals.length < 2) throw new Error('getProductInsights needs at least two intervals (R2/…) to compare');
  return [intervals[intervals.length - 2], intervals[intervals.length - 1]];
}

function sumByDate(items: DataItem[], metric: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const item of items) sums.set(item.usage_date, (sums.get(item.usage_date) ?? 0) + Number(item[metric] ?? 0));
  return sums;
}

/** The latest usage_date whose cost (amortized or billed) is not zero. */
function lastDayWithCost(items: DataItem[]): string | undefined {
  let last: string | undefined;
  for (const item of items) {
    if ((Number(item.amortized_cost) !== 0 || Number(item.billed_cost) !== 0) && (!last || item.usage_date > last)) last = item.usage_date;
  }
  return last;
}

/** What a unit cost is per, from its answer's unit and unit_scale: `order` (scale 1), `1,000 orders` (scale 1000). */
function perUnits(unit: string, scale: number): string {
  return scale === 1 ? unit : `${scale.toLocaleString('en-US')} ${unit}s`;
}

function total(aggregation: { amount: number }[]): number {
  return aggregation.reduce((sum, point) => sum + point.amount, 0);
}

/** `component:default/my-service` → `my-service` (a ref without kind or namespace is its own name). */
export function entityName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1).replace(/^[^:]*:/, '');
}
