import { addDays, dayNumber } from '../common/dates/calendar-date';
import type { CostLineItemRow } from '../cost-query/cost-line-item';
import { mixSeed, SeededRandom } from './seeded-random';

/**
 * Labelled estates (issue 32's accuracy bench): anomalies of known kind, size and extent injected into a demo estate,
 * so a detector's precision and recall can be counted. Each anomaly adds Usage rows to one stream (an account's
 * service) on its days, sized as a share of its service's typical daily cost (the median of the 28 days before it),
 * the quantity a cost series is judged by. Pure: the caller supplies the estate's rows and inserts the result.
 */

export type AnomalyKind = 'spike' | 'level-shift' | 'slow-leak';

export interface InjectedAnomaly {
  kind: AnomalyKind;
  service: string;
  accountId: string;
  start: string;
  end: string;
  /** The added amount at its full size, over the service's typical daily cost (a slow leak grows to it). */
  share: number;
}

/** A usage stream an anomaly may be injected into: its rows and the daily amortized cost of its service. */
export interface Candidate {
  service: string;
  accountId: string;
  /** A Usage row of the stream, copied (with the amount replaced) for every injected day. */
  template: CostLineItemRow;
  /** The service's daily amortized cost (every account), by day. */
  serviceDaily: ReadonlyMap<string, number>;
}

export interface LabelledPlan {
  anomalies: InjectedAnomaly[];
  rows: CostLineItemRow[];
}

/** Days apart two anomalies of one service at least: each is judged against a baseline without the other. */
const SEPARATION_DAYS = 35;
const BASELINE_DAYS = 28;

/**
 * `count` anomalies (kinds in turn) between `from` and `to`, each in a candidate's service at least SEPARATION_DAYS
 * from the others of that service; spikes last 1–3 days, level shifts 7–20, slow leaks grow over 7–10 days and hold
 * 5; shares are drawn from `minShare`–1.
 */
export function planLabelledAnomalies(
  candidates: readonly Candidate[],
  window: { from: string; to: string },
  options: { seed: number; count: number; minShare: number },
): LabelledPlan {
  const random = new SeededRandom(mixSeed(options.seed, 0x616e6f6d)); // 'anom'
  const kinds: AnomalyKind[] = ['spike', 'level-shift', 'slow-leak'];
  const taken = new Map<string, number[]>();
  const anomalies: InjectedAnomaly[] = [];
  const rows: CostLineItemRow[] = [];
  const span = dayNumber(window.to) - dayNumber(window.from) + 1;
  for (let attempt = 0; anomalies.length < options.count && attempt < options.count * 50; attempt++) {
    const kind = kinds[anomalies.length % kinds.length];
    const candidate = random.pick(candidates);
    const days = kind === 'spike' ? random.int(1, 3) : kind === 'level-shift' ? random.int(7, 20) : random.int(12, 15);
    const start = addDays(window.from, random.int(0, span - days));
    const starts = taken.get(candidate.service) ?? [];
    if (starts.some((other) => Math.abs(other - dayNumber(start)) < SEPARATION_DAYS)) continue;
    const typical = typicalDaily(candidate.serviceDaily, start);
    if (!(typical > 0)) continue;
    taken.set(candidate.service, [...starts, dayNumber(start)]);
    const share = random.between(options.minShare, 1);
    const anomaly: InjectedAnomaly = {
      kind,
      service: candidate.service,
      accountId: candidate.accountId,
      start,
      end: addDays(start, days - 1),
      share: Math.round(share * 1000) / 1000,
    };
    anomalies.push(anomaly);
    rows.push(...injectedRows(candidate, anomaly, typical, days));
  }
  return { anomalies, rows };
}

/** The median of the service's daily cost over the BASELINE_DAYS days before `start`. */
function typicalDaily(daily: ReadonlyMap<string, number>, start: string): number {
  const values = Array.from({ length: BASELINE_DAYS }, (_, i) => daily.get(addDays(start, -(i + 1))) ?? 0).sort((a, b) => a - b);
  return (values[BASELINE_DAYS / 2 - 1] + values[BASELINE_DAYS / 2]) / 2;
}

function injectedRows(candidate: Candidate, anomaly: InjectedAnomaly, typical: number, days: number): CostLineItemRow[] {
  const full = anomaly.share * typical;
  // A slow leak grows over its first days (all but the last five), then holds.
  const growing = anomaly.kind === 'slow-leak' ? days - 5 : 0;
  return Array.from({ length: days }, (_, i) => {
    const amount = (growing > 0 && i < growing ? (full * (i + 1)) / (growing + 1) : full).toFixed(6);
    return {
      ...candidate.template,
      usage_date: addDays(anomaly.start, i),
      charge_category: 'Usage',
      cost_type: 'Usage',
      amortized_cost: amount,
      billed_cost: amount,
      cash_cost: amount,
      on_demand_cost: amount,
      enterprise_discount_savings: '0.000000',
      product_discount_savings: '0.000000',
      partner_discount_savings: '0.000000',
      commitment_savings: '0.000000',
      spot_savings: '0.000000',
      other_savings: '0.000000',
    };
  });
}
