/**
 * `npm run -s docs:forecast-plot`: docs/images/forecast.svg, a forecast of the demo estate's daily amortized cost billed
 * in USD (the demo generator's rows, the demo seed, 119 days up to 2026-11-24) with its 80 % interval, drawn by the model
 * `POST /forecast` uses (src/forecasts/forecast-model.ts), with the series' backtest in the caption.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addDays, dayNumber, formatDayNumber } from '../src/common/dates/calendar-date';
import { DEMO_DEFAULT_SEED, generateDemoRows } from '../src/demo/demo-data.generator';
import { backtest, estimateTotal, fitCalibrated } from '../src/forecasts/forecast-model';
import { FORECAST_LIMITS } from '../src/forecasts/forecast-limits';

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
  const [width, height, left, top, bottom] = [900, 380, 70, 30, 70];
  const days = values.length + HORIZON;
  const max = Math.max(...values, ...future.map((point) => point.upper)) * 1.05;
  const x = (i: number) => left + ((width - left - 20) * i) / (days - 1);
  const y = (value: number) => top + (height - top - bottom) * (1 - value / max);
  const line = (points: Array<[number, number]>) =>
    points.map(([px, py], i) => `${i ? 'L' : 'M'}${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
  const actual = line(values.map((value, i) => [x(i), y(value)]));
  const mean = line(future.map((point, i) => [x(values.length + i), y(point.mean)]));
  const band = `${line(future.map((point, i) => [x(values.length + i), y(point.upper)]))} ${future
    .map((point, i) => [x(values.length + i), y(point.lower)] as [number, number])
    .reverse()
    .map(([px, py]) => `L${px.toFixed(1)},${py.toFixed(1)}`)
    .join(' ')} Z`;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(max * share));
  const months = Array.from({ length: days }, (_, i) => formatDayNumber(dayNumber(first) + i)).flatMap((date, i) =>
    date.endsWith('-01')
      ? [`<text x="${x(i).toFixed(1)}" y="${height - bottom + 18}" font-size="11" text-anchor="middle">${date.slice(0, 7)}</text>`]
      : [],
  );
  const caption = [
    `Demo estate, daily amortized cost billed in USD: ${values.length} days of history, ${HORIZON} days forecast with the ${LEVEL} % interval.`,
    `Backtest on its own history: MAPE ${((tested.mape ?? 0) * 100).toFixed(1)} % of 7-day totals, ${Math.round((tested.intervalCoverage ?? 0) * 100)} % of days inside their intervals.`,
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    ...ticks.map(
      (tick) =>
        `<line x1="${left}" x2="${width - 20}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" stroke="#eee"/><text x="${left - 6}" y="${(y(tick) + 4).toFixed(1)}" font-size="11" text-anchor="end">${tick.toLocaleString('en-US')}</text>`,
    ),
    ...months,
    `<path d="${band}" fill="#f4a261" fill-opacity="0.35" stroke="none"/>`,
    `<path d="${actual}" fill="none" stroke="#264653" stroke-width="1.5"/>`,
    `<path d="${mean}" fill="none" stroke="#e76f51" stroke-width="2" stroke-dasharray="5,3"/>`,
    ...caption.map((text, i) => `<text x="${left}" y="${height - 28 + 16 * i}" font-size="12">${text}</text>`),
    `<text x="${left}" y="18" font-size="13"><tspan fill="#264653">— actual</tspan>  <tspan fill="#e76f51">- - forecast mean</tspan>  <tspan fill="#f4a261">▇ ${LEVEL} % interval</tspan></text>`,
    '</svg>',
    '',
  ].join('\n');
}

const { first, values } = dailyCost();
mkdirSync(join(OUT, '..'), { recursive: true });
writeFileSync(OUT, svg(first, values));
console.log(`wrote ${OUT}`);
