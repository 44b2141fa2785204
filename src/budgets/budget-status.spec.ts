import { addDays } from '../common/dates/calendar-date';
import { scaled } from '../common/money/scaled-decimal';
import type { BudgetDefinition, StoredAlert } from '../store/repositories/budgets.repository';
import { alertDecisions, budgetStatus, BudgetSums, previousPeriodWithdrawals } from './budget-status';

const TODAY = '2026-11-10';
const definition = (thresholds: BudgetDefinition['thresholds']): BudgetDefinition => ({
  name: 'b',
  filters: {},
  metric: 'amortized_cost',
  currency: 'USD',
  period: 'monthly',
  amounts: { default: '300' },
  thresholds,
  notify: [],
});

/** `perDay` on each of the `days` days up to today. */
function steady(perDay: string, days: number): BudgetSums {
  const sums: BudgetSums = { days: new Map(), months: new Map() };
  for (let i = 0; i < days; i++) {
    const day = addDays(TODAY, -i);
    sums.days.set(day, { all: scaled(perDay), modelled: scaled(perDay) });
    const month = `${day.slice(0, 7)}-01`;
    sums.months.set(month, (sums.months.get(month) ?? 0n) + scaled(perDay));
  }
  return sums;
}

const alert = (kind: 'actual' | 'forecast', percent: number, event: 'fired' | 'withdrawn'): StoredAlert => ({
  budgetId: 'b',
  periodStart: '2026-11-01',
  periodEnd: '2026-11-30',
  kind,
  percent,
  event,
  at: '2026-11-05T00:00:00.000Z',
  eventId: `${kind}-${percent}-${event}`,
  payload: '{}',
  notify: [],
});

describe('budget status', () => {
  it('a steady 10 a day: 100 to date, 100 pro-rated, 300 forecast, a forecast threshold crossing on the last day', () => {
    const status = budgetStatus(definition([{ kind: 'forecast', percent: 100 }]), steady('10', 60), TODAY, [], 1);
    expect(status).toMatchObject({ amount: 300, actual: 100, exact_actual: '100', percent_used: 33.33, prorated_amount: 100 });
    expect(status.forecast).toEqual({ mean: 300, lower: 300, upper: 300 });
    expect(status.thresholds).toEqual([
      { kind: 'forecast', percent: 100, amount: 300, state: 'forecast_breach', since: null, crossing_date: '2026-11-30' },
    ]);
    expect(status.history).toEqual([
      { period: { label: '2026-10', start: '2026-10-01', end: '2026-10-31' }, amount: 300, actual: 310, percent_used: 103.33 },
    ]);
  });

  it('no forecast with under 14 days of history: forecast thresholds stay as their alerts left them', () => {
    const status = budgetStatus(definition([{ kind: 'forecast', percent: 50 }]), steady('10', 10), TODAY, [], 0);
    expect(status.forecast).toBeNull();
    expect(status.thresholds[0].state).toBe('ok');
    const fired = budgetStatus(
      definition([{ kind: 'forecast', percent: 50 }]),
      steady('10', 10),
      TODAY,
      [alert('forecast', 50, 'fired')],
      0,
    );
    expect(fired.thresholds[0]).toMatchObject({ state: 'forecast_breach', since: '2026-11-05T00:00:00.000Z' });
  });

  it('hysteresis: a fired forecast threshold holds until the upper bound falls below it, and never fires twice', () => {
    // Forecast 300: a threshold at 101 % (303) is above the mean; once fired it holds only while upper ≥ 303.
    const standing = budgetStatus(
      definition([{ kind: 'forecast', percent: 101 }]),
      steady('10', 60),
      TODAY,
      [alert('forecast', 101, 'fired')],
      0,
    );
    expect(standing.thresholds[0].state).toBe('ok'); // upper is 300 (a steady series has no spread)
    expect(alertDecisions(standing, [alert('forecast', 101, 'fired')])).toEqual([
      { threshold: { kind: 'forecast', percent: 101 }, event: 'withdrawn' },
    ]);
    const again = budgetStatus(definition([{ kind: 'forecast', percent: 90 }]), steady('10', 60), TODAY, [], 0);
    const history = [alert('forecast', 90, 'fired'), alert('forecast', 90, 'withdrawn')];
    expect(alertDecisions(again, history)).toEqual([]);
  });

  it('actual thresholds fire when reached, are withdrawn when a restatement undoes them, and may fire again', () => {
    const reached = budgetStatus(definition([{ kind: 'actual', percent: 30 }]), steady('10', 60), TODAY, [], 0);
    expect(alertDecisions(reached, [])).toEqual([{ threshold: { kind: 'actual', percent: 30 }, event: 'fired' }]);
    expect(alertDecisions(reached, [alert('actual', 30, 'fired')])).toEqual([]);
    const restated = budgetStatus(definition([{ kind: 'actual', percent: 30 }]), steady('5', 60), TODAY, [], 0);
    expect(alertDecisions(restated, [alert('actual', 30, 'fired')])).toEqual([
      { threshold: { kind: 'actual', percent: 30 }, event: 'withdrawn' },
    ]);
    expect(alertDecisions(reached, [alert('actual', 30, 'fired'), alert('actual', 30, 'withdrawn')])).toEqual([
      { threshold: { kind: 'actual', percent: 30 }, event: 'fired' },
    ]);
  });
});

describe('restatements of the period before', () => {
  const october = (event: 'fired' | 'withdrawn'): StoredAlert => ({
    ...alert('actual', 90, event),
    periodStart: '2026-10-01',
    periodEnd: '2026-10-31',
  });

  it('withdraw its actual alerts the restated spend no longer reaches, and never fire one late', () => {
    const budget = definition([{ kind: 'actual', percent: 90 }]);
    // October: 31 days of 10 = 310 ≥ 90 % of 300; restated to 5 a day = 155 < 270.
    const reached = budgetStatus(budget, steady('10', 60), TODAY, [], 1);
    expect(reached.exact_previous_actual).toBe('310');
    expect(previousPeriodWithdrawals(budget, reached, [october('fired')])).toEqual([]);
    const restated = budgetStatus(budget, steady('5', 60), TODAY, [], 1);
    expect(previousPeriodWithdrawals(budget, restated, [october('fired')])).toEqual([
      {
        threshold: { kind: 'actual', percent: 90 },
        event: 'withdrawn',
        previous: { period: { label: '2026-10', start: '2026-10-01', end: '2026-10-31' }, exactActual: '155' },
      },
    ]);
    expect(previousPeriodWithdrawals(budget, restated, [october('fired'), october('withdrawn')])).toEqual([]);
    expect(previousPeriodWithdrawals(budget, reached, [])).toEqual([]); // reached, never fired: no late alert
  });
});
