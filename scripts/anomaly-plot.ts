/**
 * `npm run -s docs:anomaly-plot`: docs/images/anomaly.svg, the demo estate's Amazon Athena daily amortized cost (the
 * demo generator's rows, the demo seed, up to 2026-11-24) with the anomalies `POST /anomalies` finds in it by the model
 * it uses (src/anomalies/anomaly-model.ts, default thresholds) — the demo's mis-partitioned query that scanned the
 * whole lake for nine days — shaded, with the largest one's numbers in the caption.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { addDays, dayNumber, formatDayNumber } from '../src/common/dates/calendar-date';
import { ANOMALY_LIMITS } from '../src/anomalies/anomaly-limits';
import { detectAnomalies } from '../src/anomalies/anomaly-model';
import { DEMO_DEFAULT_SEED, generateDemoRows } from '../src/demo/demo-data.generator';
import { DailyChart } from './daily-chart';

const LAST_DAY = '2026-11-24';
const SERVICE = 'Amazon Athena';
const SHOWN_DAYS = 180;
const OUT = resolve(__dirname, '../docs/images/anomaly.svg');

function dailyCost(): { first: string; values: number[] } {
  const first = addDays(LAST_DAY, -(SHOWN_DAYS + ANOMALY_LIMITS.lookbackDays - 1));
  const values: number[] = [];
  const rows = generateDemoRows({
    organizationId: '00000000-0000-4000-8000-000000000001',
    from: first,
    to: LAST_DAY,
    seed: DEMO_DEFAULT_SEED,
  });
  const leftOut: readonly string[] = ANOMALY_LIMITS.leftOutCategories;
  for (const day of rows) {
    values.push(
      day.reduce(
        (total, row) =>
          row.service === SERVICE && !leftOut.includes(row.charge_category ?? '') ? total + Number(row.amortized_cost) : total,
        0,
      ),
    );
  }
  return { first, values };
}

function svg(first: string, values: number[]): string {
  const firstDay = dayNumber(first);
  const shownFrom = values.length - SHOWN_DAYS;
  const anomalies = detectAnomalies({
    values,
    firstDay,
    detectFrom: firstDay + shownFrom,
    historyFrom: firstDay,
    excluded: new Set(),
    minImpact: ANOMALY_LIMITS.defaultMinImpact,
    minImpactPercentage: ANOMALY_LIMITS.defaultMinImpactPercentage,
  });
  const shown = values.slice(shownFrom);
  const chart = new DailyChart(firstDay + shownFrom, SHOWN_DAYS, Math.max(...shown) * 1.05);
  const index = (day: number) => day - firstDay - shownFrom;
  const path = DailyChart.line(shown.map((value, i) => [chart.x(i), chart.y(value)]));
  const bands = anomalies.map((anomaly) => {
    const [from, to] = [chart.x(index(anomaly.startDay)) - 2, chart.x(index(anomaly.endDay)) + 2];
    return `<rect x="${from.toFixed(1)}" y="${chart.top}" width="${(to - from).toFixed(1)}" height="${chart.height - chart.top - chart.bottom}" fill="#e63946" fill-opacity="0.18"/>`;
  });
  const largest = [...anomalies].sort((a, b) => b.impact - a.impact)[0];
  const caption = largest
    ? [
        `Demo estate, ${SERVICE}, daily amortized cost (USD), ${SHOWN_DAYS} days; shaded: the ${anomalies.length} anomal${anomalies.length === 1 ? 'y' : 'ies'} found at the default thresholds.`,
        `Largest: ${formatDayNumber(largest.startDay)} to ${formatDayNumber(largest.endDay)}, expected ${Math.round(largest.expected).toLocaleString('en-US')}, actual ${Math.round(largest.actual).toLocaleString('en-US')} (+${Math.round(largest.impactPercentage ?? 0)} %), score ${largest.score.toFixed(1)}.`,
      ]
    : [`Demo estate, ${SERVICE}: no anomaly found.`];
  return chart.svg(
    [...bands, `<path d="${path}" fill="none" stroke="#264653" stroke-width="1.5"/>`],
    '<tspan fill="#264653">— actual</tspan>  <tspan fill="#e63946">▇ anomaly</tspan>',
    caption,
  );
}

const { first, values } = dailyCost();
mkdirSync(join(OUT, '..'), { recursive: true });
writeFileSync(OUT, svg(first, values));
console.log(`wrote ${OUT}`);
