/**
 * The demo estate's business metrics (issue 60): `orders` (per thousand) and `active_customers`, each a daily series
 * with a believable relation to the estate's cost — orders follow the day's usage cost with a weekend lift and noise,
 * customers grow slowly with it — so /unit-costs answers something worth reading. Deterministic per seed.
 */
import { dayNumber, isoWeekday } from '../common/dates/calendar-date';
import { mixSeed, mulberry32 } from './seeded-random';

export interface DemoMetric {
  name: string;
  unit: string;
  unitScale: number;
}

export const DEMO_METRICS: readonly DemoMetric[] = [
  { name: 'orders', unit: 'order', unitScale: 1_000 },
  { name: 'active_customers', unit: 'customer', unitScale: 1 },
];

/** Orders per unit of the day's cost, and the weekend's lift (shoppers buy more when engineers deploy less). */
const ORDERS_PER_COST = 2.4;
const WEEKEND_LIFT = 1.35;

/** Each metric's value per day, from the estate's daily amortized cost (in its reporting currency, roughly). */
export function demoMetricValues(
  dailyCost: ReadonlyMap<string, number>,
  seed: number,
): Array<{ name: string; date: string; value: string }> {
  const days = [...dailyCost.keys()].sort();
  return days.flatMap((date, index) => {
    const random = mulberry32(mixSeed(seed, 60, dayNumber(date)));
    const weekend = isoWeekday(dayNumber(date)) >= 6 ? WEEKEND_LIFT : 1;
    const orders = Math.round(dailyCost.get(date)! * ORDERS_PER_COST * weekend * (0.9 + random() * 0.2));
    const customers = Math.round(1_800 + index * 2.5 + random() * 40);
    return [
      { name: 'orders', date, value: String(Math.max(0, orders)) },
      { name: 'active_customers', date, value: String(customers) },
    ];
  });
}
