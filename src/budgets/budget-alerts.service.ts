import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { addDays, todayUtc } from '../common/dates/calendar-date';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { amountFor, BUDGET_LIMITS } from './budget-definition';
import { alertDecisions, AlertDecision, previousPeriodWithdrawals } from './budget-status';
import { BudgetsRepository, StoredAlert, StoredBudget } from '../store/repositories/budgets.repository';
import { BudgetStatusAnswer, BudgetsService } from './budgets.service';
import type { BudgetAlertDto } from './dto/budget.dto';
import type { BudgetThresholdEvent } from './webhook-payloads';

/**
 * Budget alerts: the worker's evaluation of an organisation's budgets (what fires, what is withdrawn: budget-status.ts
 * decides, this records and audits) and each budget's alerts with their deliveries.
 */
@Injectable()
export class BudgetAlertsService {
  constructor(
    private readonly repository: BudgetsRepository,
    private readonly budgets: BudgetsService,
    private readonly auditTrail: AuditTrail,
  ) {}

  /**
   * Evaluates every budget of the organisation for its current period (and, for restatements, the actual alerts of the
   * period before); records and audits the alerts that change.
   */
  async evaluate(organizationId: string, today = todayUtc()): Promise<StoredAlert[]> {
    const budgets = await this.repository.budgets(organizationId);
    if (budgets.length === 0) return [];
    // Every alert kept: the decisions need each threshold's whole history in the period, the standing its `since`.
    const known = await this.repository.alerts(organizationId, `${addDays(today, -BUDGET_LIMITS.alertDays)}T00:00:00Z`);
    const standing = await this.budgets.standing(organizationId, budgets, today, 1, known);
    const at = new Date().toISOString();
    const alerts = standing.flatMap((status, i) => {
      const own = known.filter((alert) => alert.budgetId === status.budgetId);
      const decisions = [...alertDecisions(status, own), ...previousPeriodWithdrawals(budgets[i].definition, status, own)];
      return decisions.map((decision) => alertOf(budgets[i], status, decision, at));
    });
    await this.repository.recordAlerts(organizationId, alerts);
    await this.auditTrail.recordAll(
      workerOrigin(organizationId),
      alerts.map((alert) => {
        const { threshold, period } = JSON.parse(alert.payload) as BudgetThresholdEvent;
        return {
          action: alert.event === 'fired' ? 'budget.alert-fired' : 'budget.alert-withdrawn',
          target: alert.budgetId,
          details: { eventId: alert.eventId, threshold, period },
        };
      }),
    );
    return alerts;
  }

  /** One budget's alerts of the last 13 months, newest first, each with its delivery attempts. */
  async history(organizationId: string, budgetId: string): Promise<BudgetAlertDto[]> {
    const since = `${addDays(todayUtc(), -BUDGET_LIMITS.alertDays)}T00:00:00Z`;
    const [alerts, attempts] = await Promise.all([
      this.repository.alerts(organizationId, since, budgetId),
      this.repository.attempts(organizationId, budgetId, since),
    ]);
    return alerts.reverse().map((alert) => {
      const deliveries = attempts
        .filter((attempt) => attempt.eventId === alert.eventId)
        .map(({ destination, attempt, at, statusCode, error, outcome }) => ({
          destination,
          attempt,
          at,
          status_code: statusCode,
          error,
          outcome,
        }));
      return {
        eventId: alert.eventId,
        event: alert.event,
        at: alert.at,
        period: { start: alert.periodStart, end: alert.periodEnd },
        threshold: { kind: alert.kind, percent: alert.percent },
        payload: JSON.parse(alert.payload) as Record<string, unknown>,
        deliveries,
        dead_letter: deliveries.some((delivery) => delivery.outcome === 'dead'),
      };
    });
  }
}

/** The worker acting for an organisation, as the audit trail records it. */
export function workerOrigin(organizationId: string): AuditOrigin {
  return { organizationId, actor: { kind: 'worker', name: 'budgets' }, clientIp: '', requestId: '' };
}

function alertOf(budget: StoredBudget, status: BudgetStatusAnswer, decision: AlertDecision, at: string): StoredAlert {
  const eventId = randomUUID();
  const period = decision.previous?.period ?? status.period;
  const event: BudgetThresholdEvent = {
    type: 'budget.threshold',
    event: decision.event,
    budgetId: budget.budgetId,
    name: budget.definition.name,
    period: { start: period.start, end: period.end },
    threshold: decision.threshold,
    amount: amountFor(budget.definition.amounts, period) ?? '0',
    actual: decision.previous?.exactActual ?? status.exact_actual,
    forecast:
      decision.previous || !status.forecast
        ? null
        : { mean: String(status.forecast.mean), lower: String(status.forecast.lower), upper: String(status.forecast.upper) },
    currency: budget.definition.currency,
    at,
  };
  return {
    budgetId: budget.budgetId,
    periodStart: period.start,
    periodEnd: period.end,
    kind: decision.threshold.kind,
    percent: decision.threshold.percent,
    event: decision.event,
    at,
    eventId,
    payload: JSON.stringify(event),
    notify: budget.definition.notify,
  };
}
