/**
 * `npm run -s docs:commitments-plot`: docs/images/commitments.svg, the demo estate's commitment discount utilisation and
 * coverage per day (the demo generator's rows, the demo seed, 365 days up to 2026-11-24) as `POST /commitments` measures
 * them (src/cost-query/commitments.query.ts): utilisation, the effective cost of rows of status Used over that of rows
 * of status Used or Unused; coverage, the list cost of eligible usage a commitment covered over that of all eligible
 * usage (usage not of status Unused, in the services a commitment applied on over the year). Costs in USD, the EUR ones
 * at the demo's daily rates as an answer in USD converts them; the year's figures in the caption.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addDays, dayNumber } from '../src/common/dates/calendar-date';
import { RateBook } from '../src/common/money/exchange-rates';
import { fractionHalfUp, scaled } from '../src/common/money/scaled-decimal';
import { DEMO_DEFAULT_SEED, DemoCostRow, generateDemoRows } from '../src/demo/demo-data.generator';
import { demoExchangeRates } from '../src/demo/demo-exchange-rates';
import { DailyChart } from './daily-chart';

const LAST_DAY = '2026-11-24';
const DAYS = 365;
const CURRENCY = 'USD';
const OUT = resolve(__dirname, '../docs/images/commitments.svg');

/** Sums in CURRENCY, in units of 1e-20 (amounts in 1e-10 times rates in 1e-10), so exact. */
interface Sums {
  used: bigint;
  unused: bigint;
  covered: bigint;
  eligible: bigint;
}

const status = (row: DemoCostRow) => (row.commitment_discount_status ?? '').toLowerCase();

/** The services on which a commitment discount applied (usage it covered) over the year, as buildCommitmentsQuery finds them. */
function eligibleServices(days: DemoCostRow[][]): Set<string> {
  const covered = days.flat().filter((row) => row.commitment_discount_id && row.charge_category === 'Usage' && status(row) === 'used');
  return new Set(covered.map((row) => row.service));
}

/** The rate of 1 `currency` in CURRENCY on `date`, in units of 1e-10. */
function rateUnits(book: RateBook, currency: string, date: string): bigint {
  if (currency === CURRENCY) return scaled('1');
  const rate = book.rateOn(currency, CURRENCY, date);
  if (!rate) throw new Error(`no ${currency} → ${CURRENCY} rate on ${date}`);
  return scaled(rate.rate);
}

/** A day's sums as buildCommitmentsQuery adds them: effective (amortized) cost of Used and Unused, list (on-demand) cost of eligible usage. */
function daySums(rows: DemoCostRow[], services: Set<string>, book: RateBook): Sums {
  const sums: Sums = { used: 0n, unused: 0n, covered: 0n, eligible: 0n };
  for (const row of rows) {
    const rate = rateUnits(book, row.billing_currency, row.usage_date);
    const [effective, list] = [scaled(row.amortized_cost) * rate, scaled(row.on_demand_cost) * rate];
    if (status(row) === 'used') sums.used += effective;
    if (status(row) === 'unused') sums.unused += effective;
    if (row.charge_category !== 'Usage' || status(row) === 'unused' || !services.has(row.service)) continue;
    sums.eligible += list;
    if (row.commitment_discount_id) sums.covered += list;
  }
  return sums;
}

function yearSums(): { first: string; days: Sums[]; services: Set<string> } {
  const first = addDays(LAST_DAY, -(DAYS - 1));
  const days = [
    ...generateDemoRows({ organizationId: '00000000-0000-4000-8000-000000000001', from: first, to: LAST_DAY, seed: DEMO_DEFAULT_SEED }),
  ];
  const services = eligibleServices(days);
  const book = new RateBook(demoExchangeRates(first, LAST_DAY, DEMO_DEFAULT_SEED));
  return { first, days: days.map((rows) => daySums(rows, services, book)), services };
}

/** `part / whole` (6 places, as the API rounds its rates), undefined without a whole (a gap in the line). */
const share = (part: bigint, whole: bigint) => (whole === 0n ? undefined : fractionHalfUp(part, whole, 6));
const utilisation = (sums: Sums) => share(sums.used, sums.used + sums.unused);
const coverage = (sums: Sums) => share(sums.covered, sums.eligible);
const percent = (value: number | undefined) => (value === undefined ? 'n/a' : `${(value * 100).toFixed(1)} %`);

/** A path through the days' percentages, broken where a day has none. */
function line(chart: DailyChart, values: Array<number | undefined>): string {
  const runs: Array<Array<[number, number]>> = [[]];
  for (const [i, value] of values.entries()) {
    if (value === undefined) runs.push([]);
    else runs[runs.length - 1].push([chart.x(i), chart.y(value * 100)]);
  }
  return runs
    .filter((run) => run.length > 0)
    .map((run) => DailyChart.line(run))
    .join(' ');
}

function svg(first: string, days: Sums[], services: Set<string>): string {
  const chart = new DailyChart(dayNumber(first), days.length, 100, (tick) => `${tick} %`);
  const year = days.reduce((total, sums) => ({
    used: total.used + sums.used,
    unused: total.unused + sums.unused,
    covered: total.covered + sums.covered,
    eligible: total.eligible + sums.eligible,
  }));
  const unused = year.unused === 0n ? ' (nothing left unused)' : '';
  const caption = [
    `Demo estate, daily, ${days.length} days: utilisation (effective cost used ÷ used + unused), coverage (list cost of eligible usage covered ÷ all).`,
    `Over the year, in ${CURRENCY}, ${services.size} eligible services: utilisation ${percent(utilisation(year))}${unused}, coverage ${percent(coverage(year))}.`,
  ];
  return chart.svg(
    [
      `<path d="${line(chart, days.map(utilisation))}" fill="none" stroke="#264653" stroke-width="2"/>`,
      `<path d="${line(chart, days.map(coverage))}" fill="none" stroke="#e76f51" stroke-width="1.5"/>`,
    ],
    '<tspan fill="#264653">— utilisation</tspan>  <tspan fill="#e76f51">— coverage</tspan>',
    caption,
  );
}

const { first, days, services } = yearSums();
mkdirSync(join(OUT, '..'), { recursive: true });
writeFileSync(OUT, svg(first, days, services));
console.log(`wrote ${OUT}`);
