import type { ImportedDelivery } from '../store/repositories/sources.repository';
import { Delivery, isComplete } from './delivery-layouts';
import { groupedBy } from '../common/collections/grouped-by';

export interface SourcePlan {
  /** The newest complete delivery of each scope that is not imported yet and not older than what was. */
  toImport: Delivery[];
  /** The newest delivery of a scope, still incomplete past the deadline (its missing parts are reported). */
  incomplete: Delivery[];
  /** Deliveries whose manifest cannot be read as their layout says. */
  unreadable: Delivery[];
  /** The newest delivery of a scope, incomplete and not yet past the deadline: what a check with nothing new waits for. */
  waiting: Delivery[];
}

/**
 * Decides what a check of a source does, per scope: a delivery is imported once (by fingerprint; a refused one is
 * not tried again until it changes), a newer one
 * replaces an older one, and an older one never replaces a newer one. An incomplete delivery waits; past
 * `incompleteAfterMs` it is reported (and still imported should its parts arrive).
 */
export function planSource(
  deliveries: Delivery[],
  imported: ImportedDelivery[],
  refused: ReadonlySet<string>,
  nowMs: number,
  incompleteAfterMs: number,
): SourcePlan {
  const last = new Map(imported.map((i) => [i.scope, i]));
  const done = new Set([...imported.map((i) => i.fingerprint), ...refused]);
  const plan: SourcePlan = { toImport: [], incomplete: [], waiting: [], unreadable: deliveries.filter((d) => d.problem !== undefined) };
  const byScope = groupedBy(
    deliveries.filter((delivery) => delivery.problem === undefined),
    (delivery) => delivery.scope,
  );
  for (const [scope, candidates] of byScope) {
    const previous = last.get(scope);
    const newer = candidates
      .filter((d) => !done.has(d.fingerprint) && (previous === undefined || d.order >= previous.order))
      .sort((a, b) => (a.order < b.order ? 1 : a.order > b.order ? -1 : 0));
    const newest = newer[0];
    if (!newest) continue;
    const complete = newer.find(isComplete);
    if (complete) plan.toImport.push(complete);
    if (isComplete(newest) || newest === complete) continue;
    if (nowMs - newest.deliveredMs >= incompleteAfterMs) plan.incomplete.push(newest);
    else plan.waiting.push(newest);
  }
  plan.toImport.sort((a, b) => (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0));
  return plan;
}
