import { addDays, dayNumber } from '../common/dates/calendar-date';
import type { LoadedRate } from '../common/money/exchange-rates';
import { mixSeed, SeededRandom } from './seeded-random';

/** The source the demo's rates are loaded under (not the ECB's own rates: these are generated). */
export const DEMO_RATES_SOURCE = 'demo (ECB-style reference rates)';

/** EUR → USD around this, at the start of the window. */
const START_RATE = 1.085;
/** Standard deviation of one business day's relative move (~0.3 %, EUR/USD's usual). */
const DAILY_VOLATILITY = 0.003;

/**
 * Reference rates for the demo estate, as the ECB publishes them: 1 EUR = x USD on business days (no weekends, no
 * 1 January or 25/26 December), four decimals, a seeded random walk. From a week before the window (a Monday's
 * costs take the Friday's rate) to its last day. Deterministic: the same seed and window give the same rates.
 */
export function demoExchangeRates(from: string, to: string, seed: number): LoadedRate[] {
  const random = new SeededRandom(mixSeed(seed, 0x72617465)); // 'rate'
  const rates: LoadedRate[] = [];
  let rate = START_RATE;
  for (let date = addDays(from, -7); date <= to; date = addDays(date, 1)) {
    if (!isTargetBusinessDay(date)) continue;
    rate *= Math.exp(random.normal() * DAILY_VOLATILITY);
    rates.push({ date, base: 'EUR', quote: 'USD', rate: rate.toFixed(4), source: DEMO_RATES_SOURCE });
  }
  return rates;
}

/** A TARGET2 business day (the days the ECB publishes reference rates on), without Easter. */
function isTargetBusinessDay(date: string): boolean {
  const weekday = (dayNumber(date) + 4) % 7; // 1970-01-01 was a Thursday: 0 = Sunday
  if (weekday === 0 || weekday === 6) return false;
  return !['01-01', '05-01', '12-25', '12-26'].includes(date.slice(5));
}
