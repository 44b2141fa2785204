/**
 * `npm run -s docs:forecast-plot`: docs/images/forecast.svg, a forecast of the demo estate's daily amortized cost billed
 * in USD (the demo generator's rows, the demo seed, 119 days up to 2026-11-24) with its 80 % interval, drawn by the model
 * `POST /forecast` uses (src/cost-query/forecast-model.ts), with the series' backtest in the caption.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addDays, dayNumber } from '../src/common/dates/calendar-date';
import { DEMO_DEFAULT_SEED, generateDemoRows } from '../src/demo/demo-data.generator';
import { backtest, estimateTotal, fitCalibrated } from '../src/cost-query/forecast-model';
import { FORECAST_LIMITS } from '../src/forecasts/forecast-limits';
import { DailyChart } from './daily-chart';

const LAST_DAY = '2026-11-24';
const HORIZON = 37; // to the end of December
const LEVEL = 80;
const OUT = resolve(__dirname, '../docs/images/forecast.svg');

function dailyCost(): { first: string; values: number[] } {
  const first = addDays(LAST_DAY, -(FORECAST_LIMITS.historyDays - 1));
  const values: number[] = [];
  const rows = generateDemoRows({
    organizationId: '00000000-0000-4000-8000-000000000001',
    from: first,
    to: LAST_DAY,
    seed: DEMO_DEFAULT_SEED,
  });
  // The costs billed in USD only: the demo's Azure enrollment bills in EUR, and two currencies are never added.
  for (const day of rows)
    values.push(day.reduce((total, row) => (row.billing_currency === 'USD' ? total + Number(row.amortized_cost) : total), 0));
  return { first, values };
}

function svg(first: string, values: number[]): string {
  const model = fitCalibrated(values, dayNumber(first), LEVEL);
  const start = dayNumber(LAST_DAY) + 1;
  const future = Array.from({ length: HORIZON }, (_, i) => start + i).map((day) => ({ day, ...estimateTotal(model, [day], LEVEL, true) }));
  const tested = backtest(values, dayNumber(first), LEVEL);
  const chart = new DailyChart(
    dayNumber(first),
    values.length + HORIZON,
    Math.max(...values, ...future.map((point) => point.upper)) * 1.05,
  );
  const at = (i: number, value: number): [number, number] => [chart.x(i), chart.y(value)];
  const actual = DailyChart.line(values.map((value, i) => at(i, value)));
  const mean = DailyChart.line(future.map((point, i) => at(values.length + i, point.mean)));
  const band = `${DailyChart.line(future.map((point, i) => at(values.length + i, point.upper)))} ${future
    .map((point, i) => at(values.length + i, point.lower))
    .reverse()
    .map(([px, py]) => `L${px.toFixed(1)},${py.toFixed(1)}`)
    .join(' ')} Z`;
  const caption = [
    `Demo estate, daily amortized cost billed in USD: ${values.length} days of history, ${HORIZON} days forecast with the ${LEVEL} % interval.`,
    `Backtest on its own history: MAPE ${((tested.mape ?? 0) * 100).toFixed(1)} % of 7-day totals, ${Math.round((tested.intervalCoverage ?? 0) * 100)} % of days inside their intervals.`,
  ];
  return chart.svg(
    [
      `<path d="${band}" fill="#f4a261" fill-opacity="0.35" stroke="none"/>`,
      `<path d="${actual}" fill="none" stroke="#264653" stroke-width="1.5"/>`,
      `<path d="${mean}" fill="none" stroke="#e76f51" stroke-width="2" stroke-dasharray="5,3"/>`,
    ],
    `<tspan fill="#264653">— actual</tspan>  <tspan fill="#e76f51">- - forecast mean</tspan>  <tspan fill="#f4a261">▇ ${LEVEL} % interval</tspan>`,
    caption,
  );
}

const { first, values } = dailyCost();
mkdirSync(join(OUT, '..'), { recursive: true });
writeFileSync(OUT, svg(first, values));
console.log(`wrote ${OUT}`);
