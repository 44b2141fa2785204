import { daysInRange, formatMonthNumber, monthNumber, todayUtc } from '../common/dates/calendar-date';
import { decimalText, scaled } from '../common/money/scaled-decimal';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { writeCostRows } from '../store/cost-partitions';
import { BusinessMetricsRepository } from '../store/repositories/business-metrics.repository';
import { writeContractCommitmentLoad } from '../store/repositories/contract-commitments.repository';
import { CurrencyRepository } from '../store/repositories/currency.repository';
import { DEMO_CONTRACT, DEMO_DEFAULT_DAYS, DEMO_DEFAULT_SEED, demoWindow, DemoCostRow, generateDemoRows } from './demo-data.generator';
import { demoExchangeRates } from './demo-exchange-rates';
import { DEMO_METRICS, demoMetricValues } from './demo-business-metrics';

export interface DemoDataOptions {
  organizationId: string;
  /** Days of history ending yesterday (UTC); default 396 (13 months). */
  days?: number;
  seed?: number;
  /** Today's date, YYYY-MM-DD (UTC); injectable for tests. */
  today?: string;
}

export interface DemoDataResult {
  rows: number;
  /** EUR/USD rates loaded for the estate's EUR-billed integration. */
  rates: number;
  /** Daily values of the demo's business metrics (orders, active customers). */
  metricValues: number;
  from: string;
  to: string;
}

/** Rows per INSERT: large enough to keep parts few, small enough to bound memory. */
const BATCH_ROWS = 25_000;

/**
 * Generates the demo estate's cost rows for an organisation and inserts them in batches, and the exchange rates
 * that convert its EUR-billed integration. Deterministic: the same seed and `today` always load the same rows.
 */
export async function loadDemoData(clickhouse: ClickhouseService, options: DemoDataOptions): Promise<DemoDataResult> {
  const { from, to } = demoWindow(options.days ?? DEMO_DEFAULT_DAYS, options.today ?? todayUtc());
  let batch: Record<string, unknown>[] = [];
  let rows = 0;
  const dailyCost = new Map<string, number>();
  let contractApplied = 0n;
  const flush = async () => {
    await writeCostRows(clickhouse, batch);
    rows += batch.length;
    batch = [];
  };
  for (const day of generateDemoRows({ organizationId: options.organizationId, from, to, seed: options.seed ?? DEMO_DEFAULT_SEED })) {
    for (const row of day) {
      batch.push(withoutDefaults(row));
      dailyCost.set(row.usage_date, (dailyCost.get(row.usage_date) ?? 0) + Number(row.amortized_cost));
      if (row.contract_applied) contractApplied += scaled(row.amortized_cost);
    }
    if (batch.length >= BATCH_ROWS) await flush();
  }
  await flush();
  const seed = options.seed ?? DEMO_DEFAULT_SEED;
  const rates = demoExchangeRates(from, to, seed);
  await new CurrencyRepository(clickhouse).insertRates(options.organizationId, rates);
  const metricValues = await loadDemoMetrics(clickhouse, options.organizationId, dailyCost, seed);
  await loadDemoContract(clickhouse, options.organizationId, { from, to }, contractApplied);
  return { rows, rates: rates.length, metricValues, from, to };
}

/** The demo's business metrics and their daily values (one load each, so each day reads these values). */
async function loadDemoMetrics(
  clickhouse: ClickhouseService,
  organizationId: string,
  dailyCost: Map<string, number>,
  seed: number,
): Promise<number> {
  const metrics = new BusinessMetricsRepository(clickhouse);
  const values = demoMetricValues(dailyCost, seed);
  for (const metric of DEMO_METRICS) {
    await metrics.saveMetric(organizationId, { ...metric, dimension: '' }, 'demo');
    const own = values.filter((value) => value.name === metric.name);
    await metrics.loadValues(
      organizationId,
      metric.name,
      own.map(({ date, value }) => ({ date, value, dimensionValue: '' })),
    );
  }
  return values.length;
}

/**
 * The demo contract's terms (the Contract Commitment dataset, one complete load): three years from the window's first
 * month, committing a tenth more than the pace of the rows would reach, so its projection shows a shortfall to act on.
 */
async function loadDemoContract(
  clickhouse: ClickhouseService,
  organizationId: string,
  window: { from: string; to: string },
  applied: bigint,
): Promise<void> {
  const start = formatMonthNumber(monthNumber(window.from));
  const end = formatMonthNumber(monthNumber(window.from) + DEMO_CONTRACT.years * 12);
  const perDay = applied / BigInt(daysInRange(window.from, window.to));
  const thousand = scaled('1000');
  const committed = ((perDay * BigInt(daysInRange(start, end) - 1) * 11n) / 10n / thousand) * thousand;
  const period = (date: string) => `${date} 00:00:00`;
  await writeContractCommitmentLoad(clickhouse, organizationId, [
    {
      contract_id: DEMO_CONTRACT.contractId,
      contract_commitment_id: DEMO_CONTRACT.commitmentId,
      category: 'Spend',
      type: DEMO_CONTRACT.type,
      description: DEMO_CONTRACT.description,
      cost: decimalText(committed),
      quantity: null,
      unit: '',
      period_start: period(start),
      period_end: period(end),
      contract_period_start: period(start),
      contract_period_end: period(end),
      billing_currency: DEMO_CONTRACT.currency,
    },
  ]);
}

const ZERO_MONEY = '0.000000';

/**
 * The row without the fields that equal the column default (zero money, '' and empty maps):
 * JSONEachRow fills omitted fields with defaults, and most savings columns are zero, so this
 * shortens the payload ClickHouse parses by about a third.
 */
export function withoutDefaults(row: DemoCostRow): Record<string, unknown> {
  const compact: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (value === '' || value === ZERO_MONEY) continue;
    if (typeof value === 'object' && Object.keys(value).length === 0) continue;
    compact[column] = value;
  }
  return compact;
}
