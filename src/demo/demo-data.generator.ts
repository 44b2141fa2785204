import { addDays, daysInRange } from '../common/dates/calendar-date';
import {
  ACCOUNTS,
  AWS_ACQUIRED_INTEGRATION,
  AWS_REGION_PREFIX,
  BUSINESS_UNIT_CATEGORY,
  CLOUDS,
  CREDITS,
  DemoAccount,
  ENV_TAG,
  ENVIRONMENT_CATEGORY,
  ENVIRONMENT_CATEGORY_KEY,
  GCP_REGION_AREA,
  ServiceKey,
  SERVICES,
  ServiceSpec,
  SUPPORT_PLANS,
  Workload,
} from './demo-estate.catalog';
import { mixSeed, mulberry32, SeededRandom } from './seeded-random';
import type { CostLineItemRow } from '../cost-query/cost-line-item';

/**
 * The demo cost generator: a pure, deterministic function of (seed, last day). The estate is a set
 * of usage streams (one account × service × region × instance/usage type, with its tags); each
 * stream emits one row per day whose cost follows a growth trend, a weekly pattern and noise.
 * Committed usage, spot, enterprise/partner/product discounts, upfront fees, taxes, support and
 * credits are derived with the money rules below, in integer micro-dollars so that every
 * identity between the columns holds exactly.
 *
 * Money rules (µ$ integers; every saving rounded once, the costs derived by subtraction):
 *   usage rows     on_demand = list price; commitment/spot savings first, then product and other
 *                  discounts, then enterprise and partner discounts on what is left;
 *                  amortized = on_demand − all six savings; cash = billed = amortized minus the
 *                  upfront share of committed usage (paid by the month's fee row instead).
 *   fee rows       (1st of the month) SavingsPlanUpfrontFee / RIFee: cash = billed = the month's
 *                  upfront share, amortized = on_demand = 0 (already spread over the usage rows).
 *   tax / support  (1st of the month) all four costs equal, no savings.
 *   credits        daily, negative amortized = billed = cash, on_demand and savings 0.
 */

export const DEMO_DEFAULT_SEED = 42;
/** 13 months and a bit: a full year-over-year comparison plus the current month. */
export const DEMO_DEFAULT_DAYS = 396;

/** One cost_line_items row; the generator writes money with 6 decimals. */
export type DemoCostRow = CostLineItemRow;

export const COST_TYPES = {
  usage: 'Usage',
  savingsPlanCovered: 'SavingsPlanCoveredUsage',
  reservationCovered: 'DiscountedUsage',
  savingsPlanFee: 'SavingsPlanUpfrontFee',
  reservationFee: 'RIFee',
  fee: 'Fee',
  tax: 'Tax',
  credit: 'Credit',
} as const;

/** One usage line of the estate. */
export interface UsageStream {
  index: number;
  account: DemoAccount;
  serviceKey: ServiceKey;
  spec: ServiceSpec;
  region: string;
  instanceType: string;
  usageType: string;
  /** On-demand cost per day at the last day of the data, before weekly pattern and noise. */
  baseDailyCost: number;
  annualGrowth: number;
  weekendFactor: number;
  /** Standard deviation of the daily log-normal noise. */
  noise: number;
  /** Spread of this stream's commitment coverage around the estate's (a multiplier). */
  coverageFactor: number;
  spot: boolean;
  workload: Workload;
  tags: Record<string, string>;
  categories: Record<string, string>;
}

export interface DemoEstate {
  seed: number;
  streams: UsageStream[];
}

/** First and last day (both included) of `days` days ending the day before `today` (UTC). */
export function demoWindow(days: number, today: string): { from: string; to: string } {
  const to = addDays(today, -1);
  return { from: addDays(to, -(days - 1)), to };
}

export function buildDemoEstate(seed: number = DEMO_DEFAULT_SEED): DemoEstate {
  const random = new SeededRandom(mixSeed(seed, 0x65737461)); // 'esta'
  const streams: UsageStream[] = [];
  for (const account of ACCOUNTS) {
    for (const workload of account.workloads) {
      for (let i = 0; i < workload.streams; i++) {
        streams.push(createStream(random, streams.length, account, workload));
      }
    }
  }
  return { seed, streams };
}

function createStream(random: SeededRandom, index: number, account: DemoAccount, workload: Workload): UsageStream {
  const spec: ServiceSpec = SERVICES[workload.service];
  const region =
    spec.region === 'global'
      ? 'global'
      : random.weighted(
          account.regions,
          account.regions.map((_, i) => (i === 0 ? 3 : 1)),
        );
  const instanceType = spec.instanceTypes ? random.pick(spec.instanceTypes) : '';
  const usageType = usageTypeFor(spec, random.pick(spec.usageTypes), region, instanceType);
  const production = account.environment === 'production';
  const sizeSpread = Math.exp(random.normal() * 0.45);
  const growth = production
    ? 0.28 + random.normal() * 0.15
    : account.environment === 'shared'
      ? 0.15 + random.normal() * 0.08
      : 0.05 + random.normal() * 0.2;
  const weekendByEnvironment = {
    production: random.between(0.92, 0.99),
    shared: random.between(0.95, 1),
    staging: random.between(0.7, 0.8),
    development: random.between(0.5, 0.6),
    sandbox: random.between(0.45, 0.55),
  }[account.environment];
  const steady = spec.family === 'Storage';
  return {
    index,
    account,
    serviceKey: workload.service,
    spec,
    region,
    instanceType,
    usageType,
    // In the integration's billing currency, at the cloud's own price list for it.
    baseDailyCost: spec.dailyCost * (workload.scale ?? 1) * sizeSpread * CLOUDS[spec.cloud].priceListFactor,
    annualGrowth: Math.min(0.9, Math.max(-0.3, growth)),
    weekendFactor: steady ? 1 : weekendByEnvironment * (1 - (spec.weekendDrop ?? 0)),
    noise: steady ? random.between(0.005, 0.015) : random.between(0.04, 0.09),
    coverageFactor: random.between(0.85, 1.12),
    spot: spec.spot !== undefined && random.chance(spec.spot.share),
    workload,
    tags: streamTags(random, account),
    categories: accountCategories(account),
  };
}

function usageTypeFor(spec: ServiceSpec, template: string, region: string, instanceType: string): string {
  return template
    .replace('{rp}', spec.cloud === 'AWS' ? (AWS_REGION_PREFIX[region] ?? '') : '')
    .replace('{area}', GCP_REGION_AREA[region] ?? 'Americas')
    .replace('{it}', instanceType);
}

/**
 * Resource tags of a stream: about one stream in seven is untagged, and tagged ones sometimes
 * lack cost-center or application, as in any real estate. Shared platform accounts tag
 * resources with the tenant team that uses them.
 */
function streamTags(random: SeededRandom, account: DemoAccount): Record<string, string> {
  if (random.chance(0.15)) return {};
  const env = ENV_TAG[account.environment];
  const tags: Record<string, string> = { env: account.legacyTags ? env.legacy : env.standard };
  tags.team = account.team === 'platform' && random.chance(0.4) ? random.pick(['checkout', 'payments', 'search']) : account.team;
  if (random.chance(0.88)) tags['cost-center'] = account.costCenter;
  if (random.chance(0.75)) tags.application = random.pick(account.applications);
  return tags;
}

function accountCategories(account: DemoAccount): Record<string, string> {
  const categories: Record<string, string> = { [ENVIRONMENT_CATEGORY_KEY]: ENVIRONMENT_CATEGORY[account.environment] };
  if (account.businessUnit) categories[BUSINESS_UNIT_CATEGORY] = account.businessUnit;
  return categories;
}

// ---- time series

const DAY_MS = 86_400_000;

/** What the cost of a day depends on, computed once per day for all streams. */
export interface DemoDay {
  date: string;
  /** Days before the last day of the data (0 on the last day, negative after it). */
  daysAgo: number;
  /** Days since 1970-01-01: the noise of a stream on a date does not depend on the span. */
  epochDay: number;
  weekend: boolean;
  /** Christmas to New Year: non-production environments are mostly switched off. */
  yearEnd: boolean;
  /** The last three days of a month: finance close. */
  monthEnd: boolean;
}

export function demoDay(date: string, lastDay: string): DemoDay {
  const day = new Date(`${date}T00:00:00Z`);
  const weekday = day.getUTCDay();
  const month = day.getUTCMonth();
  const dayOfMonth = day.getUTCDate();
  const lastOfMonth = new Date(Date.UTC(day.getUTCFullYear(), month + 1, 0)).getUTCDate();
  const epochDay = Math.round(day.getTime() / DAY_MS);
  return {
    date,
    daysAgo: Math.round(Date.parse(`${lastDay}T00:00:00Z`) / DAY_MS) - epochDay,
    epochDay,
    weekend: weekday === 0 || weekday === 6,
    yearEnd: (month === 11 && dayOfMonth >= 23) || (month === 0 && dayOfMonth <= 2),
    monthEnd: dayOfMonth > lastOfMonth - 3,
  };
}

/**
 * The stream's on-demand cost for a day, in dollars (0 before it starts or after it ends).
 * Without `withNoise` it is the expected value, used to size monthly fees and taxes in advance.
 */
export function dailyOnDemandCost(stream: UsageStream, day: DemoDay, seed: number, withNoise = true): number {
  const { workload, account } = stream;
  const { daysAgo } = day;
  if (workload.startsDaysAgo !== undefined && daysAgo > workload.startsDaysAgo) return 0;
  if (workload.endsDaysAgo !== undefined && daysAgo < workload.endsDaysAgo) return 0;
  let cost = stream.baseDailyCost * Math.pow(1 + stream.annualGrowth, -daysAgo / 365);
  if (day.weekend) cost *= stream.weekendFactor;
  if (workload.startsDaysAgo !== undefined) {
    // New workloads ramp up over their first six weeks.
    cost *= Math.min(1, 0.1 + (0.9 * (workload.startsDaysAgo - daysAgo)) / 42);
  }
  if (workload.incident && daysAgo <= workload.incident.fromDaysAgo && daysAgo >= workload.incident.toDaysAgo) {
    cost *= workload.incident.factor;
  }
  if (day.yearEnd) cost *= account.environment === 'production' || account.environment === 'shared' ? 0.92 : 0.6;
  if (day.monthEnd && (account.team === 'finance-systems' || account.team === 'bi')) cost *= 1.35;
  if (withNoise) {
    const random = mulberry32(mixSeed(seed, stream.index, day.epochDay));
    const u = 1 - random();
    const gaussian = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    cost *= Math.exp(gaussian * stream.noise - (stream.noise * stream.noise) / 2);
  }
  return cost;
}

/** Share of a committed stream's usage covered by Savings Plans / reservations / CUDs on a day. */
export function commitmentCoverage(stream: UsageStream, daysAgo: number): number {
  const commitment = stream.spec.commitment;
  if (!commitment || stream.spot) return 0;
  const environment = stream.account.environment;
  let coverage: number;
  switch (stream.spec.cloud) {
    case 'AWS':
      // A second three-year Compute Savings Plan was bought 180 days ago.
      if (commitment.kind === 'savingsPlan') coverage = environment === 'sandbox' ? 0 : daysAgo > 180 ? 0.45 : 0.72;
      else coverage = environment === 'production' ? 0.65 : 0; // RIs for production databases only
      break;
    case 'Azure':
      coverage = environment === 'production' ? (daysAgo > 90 ? 0.5 : 0.68) : 0;
      break;
    case 'GCP':
      coverage = environment === 'production' ? 0.55 : 0;
      break;
    default:
      coverage = 0;
  }
  return Math.min(0.95, coverage * stream.coverageFactor);
}

// ---- money

interface Money {
  amortized: number;
  billed: number;
  cash: number;
  onDemand: number;
  enterprise: number;
  product: number;
  partner: number;
  commitment: number;
  spot: number;
  other: number;
}

const ZERO: Money = {
  amortized: 0,
  billed: 0,
  cash: 0,
  onDemand: 0,
  enterprise: 0,
  product: 0,
  partner: 0,
  commitment: 0,
  spot: 0,
  other: 0,
};

const MICROS = 1_000_000;

function toMicros(dollars: number): number {
  return Math.round(dollars * MICROS);
}

/** Exact decimal text of an integer number of micro-dollars. */
export function formatMicros(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  return `${sign}${Math.floor(abs / MICROS)}.${String(abs % MICROS).padStart(6, '0')}`;
}

/** Money of a usage row from its on-demand cost (µ$), applying the stream's discounts in order. */
export function usageMoney(stream: UsageStream, onDemand: number, covered: boolean): Money {
  const { spec } = stream;
  const cloud = CLOUDS[spec.cloud];
  const commitment = covered && spec.commitment ? Math.round(onDemand * spec.commitment.savingsRate) : 0;
  const spot = stream.spot && spec.spot ? Math.round(onDemand * spec.spot.savingsRate) : 0;
  const afterRates = onDemand - commitment - spot;
  const product = Math.round(afterRates * (spec.productDiscountRate ?? 0));
  // Sustained-use style discounts apply only to usage not already discounted by a commitment or spot.
  const other = covered || stream.spot ? 0 : Math.round(afterRates * (spec.otherSavingsRate ?? 0));
  const net = afterRates - product - other;
  const enterprise = Math.round(net * cloud.enterpriseDiscountRate);
  const partner = Math.round(net * cloud.partnerDiscountRate);
  const amortized = net - enterprise - partner;
  const upfront = covered && spec.commitment ? Math.round(amortized * spec.commitment.upfrontShare) : 0;
  return {
    amortized,
    billed: amortized - upfront,
    cash: amortized - upfront,
    onDemand,
    enterprise,
    product,
    partner,
    commitment,
    spot,
    other,
  };
}

function feeMoney(amount: number): Money {
  return { ...ZERO, billed: amount, cash: amount };
}

/** Tax and support: charged as billed, no discounts, so the on-demand equivalent is the charge itself. */
function chargeMoney(amount: number): Money {
  return { ...ZERO, amortized: amount, billed: amount, cash: amount, onDemand: amount };
}

function creditMoney(amount: number): Money {
  return { ...ZERO, amortized: -amount, billed: -amount, cash: -amount };
}

// ---- rows

export interface GenerateOptions {
  organizationId: string;
  /** First and last usage date, both included, YYYY-MM-DD. */
  from: string;
  to: string;
  seed?: number;
}

interface RowShape {
  date: string;
  account: DemoAccount;
  spec: Pick<ServiceSpec, 'cloud' | 'service' | 'family' | 'layer'>;
  region: string;
  instanceType: string;
  usageType: string;
  costType: string;
  tags: Record<string, string>;
  categories: Record<string, string>;
  money: Money;
  /** The commitment discount the row used (covered usage) or paid for (its fee). */
  commitment?: DemoCommitment;
}

/** A commitment discount as FOCUS names it. */
interface DemoCommitment {
  id: string;
  name: string;
  type: string;
  category: 'Spend' | 'Usage';
}

/** The account's compute savings plan (AWS; spend-based, one per account). */
function savingsPlanOf(account: DemoAccount): DemoCommitment {
  return {
    id: `arn:aws:savingsplans::${account.id}:savingsplan/compute-3yr`,
    name: 'Compute Savings Plan (3 yr)',
    type: 'Savings Plan',
    category: 'Spend',
  };
}

/** A stream's reservation (usage-based, per instance type and region), as each cloud names it. */
function reservationOf(stream: UsageStream): DemoCommitment {
  const type =
    { AWS: 'Reserved Instance', Azure: 'Reservation', GCP: 'Committed Use Discount' }[stream.spec.cloud as 'AWS'] ?? 'Reservation';
  return {
    id: `${stream.account.id}/${stream.region}/${stream.instanceType}`,
    name: `${stream.instanceType} ${type} (${stream.region})`,
    type,
    category: 'Usage',
  };
}

const NO_TAGS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Yields the rows of each day from `from` to `to`, one array per day. Days are independent: the
 * rows of a day depend only on the seed, the date and `to` (trends are anchored at the last day,
 * so the latest month always looks the same size whatever the span).
 */
export function* generateDemoRows(options: GenerateOptions): Generator<DemoCostRow[]> {
  const seed = options.seed ?? DEMO_DEFAULT_SEED;
  const estate = buildDemoEstate(seed);
  const monthly = new MonthlyCharges(estate, options.to);
  const days = daysInRange(options.from, options.to);
  for (let i = 0; i < days; i++) {
    const day = demoDay(addDays(options.from, i), options.to);
    const shapes: RowShape[] = [];
    usageRows(estate, day, shapes);
    creditRows(estate, day, shapes);
    if (day.date.endsWith('-01')) shapes.push(...monthly.rowsFor(day.date));
    yield shapes.map((shape) => toRow(options.organizationId, shape));
  }
}

function usageRows(estate: DemoEstate, day: DemoDay, out: RowShape[]): void {
  for (const stream of estate.streams) {
    const onDemand = toMicros(dailyOnDemandCost(stream, day, estate.seed));
    if (onDemand <= 0) continue;
    const covered = Math.round(onDemand * commitmentCoverage(stream, day.daysAgo));
    if (covered > 0) {
      const savingsPlan = stream.spec.commitment?.kind === 'savingsPlan';
      const costType = savingsPlan ? COST_TYPES.savingsPlanCovered : COST_TYPES.reservationCovered;
      const commitment = savingsPlan ? savingsPlanOf(stream.account) : reservationOf(stream);
      out.push({ ...streamRow(stream, day.date, costType, usageMoney(stream, covered, true)), commitment });
    }
    if (onDemand - covered > 0) {
      out.push(streamRow(stream, day.date, COST_TYPES.usage, usageMoney(stream, onDemand - covered, false)));
    }
  }
}

function streamRow(stream: UsageStream, date: string, costType: string, money: Money): RowShape {
  return {
    date,
    account: stream.account,
    spec: stream.spec,
    region: stream.region,
    instanceType: stream.instanceType,
    usageType: stream.usageType,
    costType,
    tags: stream.tags,
    categories: stream.categories,
    money,
  };
}

/** Promotional credits, each day covering most of the credited service's cost up to the monthly grant. */
function creditRows(estate: DemoEstate, day: DemoDay, out: RowShape[]): void {
  for (const credit of CREDITS) {
    if (day.daysAgo > credit.startsDaysAgo) continue;
    const streams = estate.streams.filter((s) => s.account.name === credit.accountName && s.serviceKey === credit.service);
    if (streams.length === 0) continue;
    let amortized = 0;
    for (const stream of streams) {
      const onDemand = toMicros(dailyOnDemandCost(stream, day, estate.seed));
      if (onDemand > 0) amortized += usageMoney(stream, onDemand, false).amortized;
    }
    const amount = Math.min(Math.round(amortized * 0.8), toMicros(credit.monthlyAmount / 30));
    if (amount <= 0) continue;
    const first = streams[0];
    out.push({
      date: day.date,
      account: first.account,
      spec: first.spec,
      region: first.region,
      instanceType: '',
      usageType: 'Credit:Promotional',
      costType: COST_TYPES.credit,
      tags: NO_TAGS,
      categories: first.categories,
      money: creditMoney(amount),
    });
  }
}

/**
 * Charges billed on the 1st of each month for the whole month: upfront commitment fees, taxes
 * and support plans, sized from the month's expected (noise-free) usage.
 */
class MonthlyCharges {
  constructor(
    private readonly estate: DemoEstate,
    private readonly lastDay: string,
  ) {}

  rowsFor(firstOfMonth: string): RowShape[] {
    // The whole month, also its days after the last day of the data: fees are billed in advance.
    const days = Array.from({ length: daysInMonth(firstOfMonth) }, (_, d) => demoDay(addDays(firstOfMonth, d), this.lastDay));
    const usage = new Map<UsageStream, { amortized: number; upfront: number }>();
    for (const stream of this.estate.streams) {
      let amortized = 0;
      let upfront = 0;
      for (const day of days) {
        const onDemand = toMicros(dailyOnDemandCost(stream, day, this.estate.seed, false));
        if (onDemand <= 0) continue;
        const covered = Math.round(onDemand * commitmentCoverage(stream, day.daysAgo));
        if (covered > 0) {
          const money = usageMoney(stream, covered, true);
          amortized += money.amortized;
          upfront += money.amortized - money.cash; // the part the fee pays
        }
        if (onDemand - covered > 0) amortized += usageMoney(stream, onDemand - covered, false).amortized;
      }
      usage.set(stream, { amortized, upfront });
    }
    return [...this.commitmentFees(firstOfMonth, usage), ...this.taxes(firstOfMonth, usage), ...this.support(firstOfMonth, usage)];
  }

  private *commitmentFees(date: string, usage: Map<UsageStream, { upfront: number }>): Generator<RowShape> {
    const savingsPlanByAccount = new Map<DemoAccount, number>();
    for (const [stream, { upfront }] of usage) {
      if (upfront <= 0 || !stream.spec.commitment) continue;
      if (stream.spec.commitment.kind === 'savingsPlan') {
        savingsPlanByAccount.set(stream.account, (savingsPlanByAccount.get(stream.account) ?? 0) + upfront);
        continue;
      }
      yield {
        date,
        account: stream.account,
        spec: stream.spec,
        region: stream.region,
        instanceType: stream.instanceType,
        usageType: reservationUsageType(stream),
        costType: COST_TYPES.reservationFee,
        tags: NO_TAGS,
        categories: stream.categories,
        money: feeMoney(upfront),
        commitment: reservationOf(stream),
      };
    }
    for (const [account, upfront] of savingsPlanByAccount) {
      yield {
        date,
        account,
        spec: { cloud: 'AWS', service: 'Savings Plans for AWS Compute usage', family: 'Compute', layer: 'Infrastructure' },
        region: '',
        instanceType: '',
        usageType: 'ComputeSP:3yrPartialUpfront',
        costType: COST_TYPES.savingsPlanFee,
        tags: NO_TAGS,
        categories: accountCategories(account),
        money: feeMoney(upfront),
        commitment: savingsPlanOf(account),
      };
    }
  }

  private *taxes(date: string, usage: Map<UsageStream, { amortized: number }>): Generator<RowShape> {
    for (const [account, amortized] of sumByAccount(usage)) {
      const amount = Math.round(amortized * CLOUDS[account.cloud].taxRate);
      if (amount <= 0) continue;
      yield {
        date,
        account,
        spec: { cloud: account.cloud, service: 'Tax', family: '', layer: 'Shared' },
        region: '',
        instanceType: '',
        usageType: 'Tax',
        costType: COST_TYPES.tax,
        tags: NO_TAGS,
        categories: accountCategories(account),
        money: chargeMoney(amount),
      };
    }
  }

  private *support(date: string, usage: Map<UsageStream, { amortized: number }>): Generator<RowShape> {
    const byAccount = sumByAccount(usage);
    for (const [cloud, plan] of Object.entries(SUPPORT_PLANS)) {
      if (!plan) continue;
      const payer = ACCOUNTS.find((a) => a.name === plan.accountName);
      if (!payer) continue;
      let cloudSpend = 0;
      for (const [account, amortized] of byAccount) if (account.cloud === cloud) cloudSpend += amortized;
      const amount = Math.round(cloudSpend * plan.rate);
      if (amount <= 0) continue;
      yield {
        date,
        account: payer,
        spec: { cloud: payer.cloud, service: plan.service, family: 'Support', layer: 'Shared' },
        region: '',
        instanceType: '',
        usageType: 'Dollar',
        costType: COST_TYPES.fee,
        tags: NO_TAGS,
        categories: accountCategories(payer),
        money: chargeMoney(amount),
      };
    }
  }
}

function sumByAccount(usage: Map<UsageStream, { amortized: number }>): Map<DemoAccount, number> {
  const sums = new Map<DemoAccount, number>();
  for (const [stream, { amortized }] of usage) sums.set(stream.account, (sums.get(stream.account) ?? 0) + amortized);
  return sums;
}

function reservationUsageType(stream: UsageStream): string {
  switch (stream.spec.cloud) {
    case 'AWS':
      return `${AWS_REGION_PREFIX[stream.region] ?? ''}HeavyUsage:${stream.instanceType}`;
    case 'Azure':
      return `Reservation - ${stream.instanceType}`;
    default:
      return `Commitment v1: ${stream.instanceType.split('-')[0].toUpperCase()} Cpu in ${GCP_REGION_AREA[stream.region] ?? 'Americas'} for 1 Year`;
  }
}

function daysInMonth(firstOfMonth: string): number {
  const [year, month] = firstOfMonth.split('-').map(Number);
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The acquired company's AWS bills come from its own payer account. */
const ACQUIRED_BILLING_ACCOUNT = '555566667777';

/** FOCUS ChargeCategory of each demo cost type. */
const CHARGE_CATEGORIES: Record<string, string> = {
  [COST_TYPES.usage]: 'Usage',
  [COST_TYPES.savingsPlanCovered]: 'Usage',
  [COST_TYPES.reservationCovered]: 'Usage',
  [COST_TYPES.savingsPlanFee]: 'Purchase',
  [COST_TYPES.reservationFee]: 'Purchase',
  [COST_TYPES.fee]: 'Purchase',
  [COST_TYPES.tax]: 'Tax',
  [COST_TYPES.credit]: 'Credit',
};

/** The row's currency and invoice: one invoice per billing account and month, in the cloud's billing currency. */
function invoiceOf(
  shape: RowShape,
): Pick<DemoCostRow, 'billing_currency' | 'billing_account_id' | 'invoice_id' | 'invoice_issuer' | 'charge_category'> {
  const cloud = CLOUDS[shape.spec.cloud];
  const account = shape.account.integrationId === AWS_ACQUIRED_INTEGRATION ? ACQUIRED_BILLING_ACCOUNT : cloud.billingAccountId;
  return {
    billing_currency: cloud.billingCurrency,
    billing_account_id: account,
    invoice_id: `${cloud.invoicePrefix}${shape.date.slice(0, 4)}${shape.date.slice(5, 7)}-${account.slice(-4)}`,
    invoice_issuer: cloud.invoiceIssuer,
    charge_category: CHARGE_CATEGORIES[shape.costType] ?? 'Usage',
  };
}

function toRow(organizationId: string, shape: RowShape): DemoCostRow {
  const { money } = shape;
  return {
    organization_id: organizationId,
    usage_date: shape.date,
    billing_period: shape.date.slice(0, 7),
    cost_layer: shape.spec.layer,
    cloud: shape.spec.cloud,
    service: shape.spec.service,
    resource_family: shape.spec.family,
    region: shape.region,
    instance_type: shape.instanceType,
    usage_type: shape.usageType,
    cost_type: shape.costType,
    account_id: shape.account.id,
    account_name: shape.account.name,
    integration_id: shape.account.integrationId,
    resource_tags: shape.tags,
    cost_categories: shape.categories,
    ...invoiceOf(shape),
    amortized_cost: formatMicros(money.amortized),
    billed_cost: formatMicros(money.billed),
    cash_cost: formatMicros(money.cash),
    on_demand_cost: formatMicros(money.onDemand),
    enterprise_discount_savings: formatMicros(money.enterprise),
    product_discount_savings: formatMicros(money.product),
    partner_discount_savings: formatMicros(money.partner),
    commitment_savings: formatMicros(money.commitment),
    spot_savings: formatMicros(money.spot),
    other_savings: formatMicros(money.other),
    ...commitmentOf(shape),
    ...contractOf(shape, invoiceOf(shape).billing_currency, money.amortized),
  };
}

/**
 * The demo's one contract (FOCUS 1.3): an AWS enterprise spend commitment that every AWS usage charge billed in USD
 * draws down by its effective cost. Its terms (the Contract Commitment dataset) are sized by the loader from the rows.
 */
export const DEMO_CONTRACT = {
  contractId: 'EDP-2025-AWS',
  commitmentId: 'EDP-2025-AWS-SPEND',
  description: 'AWS Enterprise Discount Program: 3-year spend commitment',
  type: 'Enterprise Agreement',
  years: 3,
  currency: 'USD',
} as const;

function contractOf(shape: RowShape, currency: string, effective: number): Partial<DemoCostRow> {
  const usage = (CHARGE_CATEGORIES[shape.costType] ?? 'Usage') === 'Usage';
  if (shape.spec.cloud !== 'AWS' || currency !== DEMO_CONTRACT.currency || !usage || effective <= 0) return {};
  // The applied cost as a JSON number of the row's exact decimal text.
  const ids = `"ContractId":${JSON.stringify(DEMO_CONTRACT.contractId)},"ContractCommitmentId":${JSON.stringify(DEMO_CONTRACT.commitmentId)}`;
  return { contract_applied: `{"Elements":[{${ids},"ContractCommitmentAppliedCost":${formatMicros(effective)}}]}` };
}

/** The FOCUS commitment columns of a row that used a commitment (status Used) or paid for one (its fee: no status). */
function commitmentOf(shape: RowShape): Partial<DemoCostRow> {
  const commitment = shape.commitment;
  if (!commitment) return {};
  const used = CHARGE_CATEGORIES[shape.costType] === 'Usage';
  return {
    pricing_category: used ? 'Committed' : 'Standard',
    commitment_discount_id: commitment.id,
    commitment_discount_name: commitment.name,
    commitment_discount_type: commitment.type,
    commitment_discount_category: commitment.category,
    commitment_discount_status: used ? 'Used' : '',
  };
}
