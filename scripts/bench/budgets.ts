/**
 * Issue 58 in the bench (`--budgets`): 1,000 budgets of the measured organisation, the way a FinOps team writes them
 * (per team tag, per service, per account, per region, monthly, quarterly and yearly), evaluated by the worker's
 * evaluation; and the status of 50 of them against one /data question over the months the status reads.
 */
import { addDays, formatMonthNumber, monthNumber } from '../../src/common/dates/calendar-date';
import type { BudgetRequestDto } from '../../src/budgets/dto/budget.dto';

export const BENCH_BUDGETS = 1_000;
export const STATUS_BUDGETS = 50;

const PERIODS = ['monthly', 'quarterly', 'yearly'] as const;

/** Budget `i` of the bench: its filters cycle through teams, services, accounts and regions. */
export function benchBudget(i: number): BudgetRequestDto {
  const pad = (n: number) => String(n).padStart(2, '0');
  const filters = [
    { inclusions: { resourceTag: 'team', resourceTagValues: [`team-${i % 80}`] } },
    { inclusions: { services: [`AWS Service ${pad(i % 16)}`, `Azure Service ${pad((i + 3) % 16)}`] } },
    { inclusions: { accountIds: [String(100000000000 + (i % 9))] }, exclusions: { services: ['AWS Service 00'] } },
    { inclusions: { regions: [`aws-region-${i % 20}`] } },
  ][i % 4];
  const period = PERIODS[i % 3];
  return {
    name: `Bench budget ${i}`,
    filters,
    period,
    amounts: { default: String(1_000 * (1 + (i % 7)) * (period === 'monthly' ? 1 : period === 'quarterly' ? 3 : 12)) },
    thresholds: [
      { kind: 'actual', percent: 80 },
      { kind: 'forecast', percent: 100 },
    ],
    notify: [],
  } as BudgetRequestDto;
}

/** What the status of a monthly budget reads, as one /data question: the 12 months before this one and this one, by month. */
export function statusWindowQuestion(today: string): object {
  return {
    groupBy: { dateGrouping: 'monthly', dimension: 'service' },
    filters: { inclusions: { dateRange: { start: formatMonthNumber(monthNumber(today) - 12), end: addDays(today, 0) } } },
  };
}

/** /unit-costs questions of the bench, each against /data with the same window and grouping: a month daily, a year monthly. */
export const UNIT_COST_PAIRS: ReadonlyArray<[string, { start: string; end: string }, 'daily' | 'monthly']> = [
  ['October 2026, daily', { start: '2026-10-01', end: '2026-10-31' }, 'daily'],
  ['12 months, monthly', { start: '2025-11-01', end: '2026-10-31' }, 'monthly'],
];
