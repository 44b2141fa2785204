import { addDays, daysInRange, dayNumber } from '../common/dates/calendar-date';
import { isoSecondsFromClickhouse } from '../common/dates/clickhouse-time';
import { decimalText, fractionHalfUp, scaled } from '../common/money/scaled-decimal';
import type { AppliedDayRow, ContractCommitmentInForce } from '../cost-query/contracts.query';
import { estimateTotal, fitCalibrated, MIN_HISTORY_DAYS, READ_HISTORY_DAYS } from '../cost-query/forecast-model';
import type { ContractCommitmentDto, ContractProjectionDto } from './dto/contracts.dto';

/** Places of `burned`. */
const BURNED_PLACES = 6;

/** A commitment's days: the first, the last (its end is exclusive), and those up to as_of. */
export interface CommitmentDays {
  first: string;
  last: string;
  /** The last day counted as applied: min(as_of, last); before `first` when the period has not started. */
  counted: string;
}

/** The days of a commitment's period (UTC dates; an end at midnight is the day before's end). */
export function commitmentDays(commitment: Pick<ContractCommitmentInForce, 'period_start' | 'period_end'>, asOf: string): CommitmentDays {
  const first = commitment.period_start.slice(0, 10);
  const endDate = commitment.period_end.slice(0, 10);
  const last = commitment.period_end.slice(11) === '00:00:00' ? addDays(endDate, -1) : endDate;
  return { first, last, counted: asOf < last ? asOf : last };
}

/**
 * A commitment's burn-down as of a day: applied to date (its ContractApplied elements in its period, in its billing
 * currency only: one currency per number), burned = applied ÷ committed in the burn measure, and the projection at
 * the period's end (applied to date + the forecast of the days left) with its interval.
 */
export function burnDown(
  commitment: ContractCommitmentInForce,
  applied: readonly AppliedDayRow[],
  asOf: string,
  level: number,
): ContractCommitmentDto {
  const days = commitmentDays(commitment, asOf);
  const own = applied.filter(
    (row) =>
      row.contract_commitment_id === commitment.contract_commitment_id &&
      row.billing_currency === commitment.billing_currency &&
      row.day >= days.first &&
      row.day <= days.counted,
  );
  const byQuantity = commitment.category === 'Usage' && commitment.quantity !== null;
  const appliedCost = own.reduce((total, row) => total + scaled(row.applied_cost), 0n);
  const quantities = own.filter((row) => row.applied_quantity !== null).map((row) => scaled(row.applied_quantity!));
  const appliedQuantity = quantities.length > 0 ? quantities.reduce((total, value) => total + value, 0n) : null;
  const committed = byQuantity ? commitment.quantity : commitment.cost;
  const appliedMeasure = byQuantity ? (appliedQuantity ?? 0n) : appliedCost;
  const elapsed = days.counted < days.first ? 0 : daysInRange(days.first, days.counted);
  const left = days.counted < days.first ? daysInRange(days.first, days.last) : daysInRange(days.counted, days.last) - 1;
  const projection = project(own, days, elapsed, byQuantity, appliedMeasure, committed, level);
  return {
    contract_commitment_id: commitment.contract_commitment_id,
    category: commitment.category,
    type: commitment.type,
    description: commitment.description,
    currency: commitment.billing_currency,
    period_start: isoSecondsFromClickhouse(commitment.period_start),
    period_end: isoSecondsFromClickhouse(commitment.period_end),
    committed_cost: amount(commitment.cost),
    committed_quantity: amount(commitment.quantity),
    unit: commitment.unit === '' ? null : commitment.unit,
    burn_measure: byQuantity ? 'quantity' : 'cost',
    applied_cost: Number(decimalText(appliedCost)),
    applied_quantity: appliedQuantity === null ? null : Number(decimalText(appliedQuantity)),
    burned: committed === null ? null : fraction(appliedMeasure, scaled(committed)),
    days_elapsed: elapsed,
    days_left: left,
    ...projection,
  };
}

type Projection = { projected: ContractProjectionDto | null; projection_note?: string };

/** The forecast of the days left, fitted on the daily applied amounts of the last days counted (zero where none). */
function project(
  own: readonly AppliedDayRow[],
  days: CommitmentDays,
  elapsed: number,
  byQuantity: boolean,
  appliedMeasure: bigint,
  committed: string | null,
  level: number,
): Projection {
  if (days.counted >= days.last) return { projected: null, projection_note: 'the period has ended: applied is final' };
  if (elapsed < MIN_HISTORY_DAYS)
    return { projected: null, projection_note: `fewer than ${MIN_HISTORY_DAYS} days of the period have passed: too few to forecast from` };
  const historyDays = Math.min(elapsed, READ_HISTORY_DAYS);
  const historyFirst = addDays(days.counted, -(historyDays - 1));
  const perDay = new Map<string, number>();
  for (const row of own) {
    const value = byQuantity ? row.applied_quantity : row.applied_cost;
    if (value !== null && row.day >= historyFirst) perDay.set(row.day, (perDay.get(row.day) ?? 0) + Number(value));
  }
  const values = Array.from({ length: historyDays }, (_, i) => perDay.get(addDays(historyFirst, i)) ?? 0);
  const firstDay = dayNumber(historyFirst);
  const model = fitCalibrated(values, firstDay, level);
  const remaining = Array.from({ length: daysInRange(days.counted, days.last) - 1 }, (_, i) => dayNumber(days.counted) + 1 + i);
  const estimate = estimateTotal(
    model,
    remaining,
    level,
    values.every((value) => value >= 0),
  );
  const toDate = Number(decimalText(appliedMeasure));
  const total = (value: number) => round4(toDate + value);
  const mean = total(estimate.mean);
  return {
    projected: {
      applied: mean,
      lower: total(estimate.lower),
      upper: total(estimate.upper),
      burned: committed === null || Number(committed) === 0 ? null : Math.round((mean / Number(committed)) * 1e6) / 1e6,
    },
  };
}

function amount(text: string | null): number | null {
  return text === null ? null : Number(decimalText(scaled(text)));
}

/** part ÷ whole exactly, half up to BURNED_PLACES; null for a commitment of nothing. */
function fraction(part: bigint, whole: bigint): number | null {
  return whole === 0n ? null : fractionHalfUp(part, whole, BURNED_PLACES);
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000 + 0;
