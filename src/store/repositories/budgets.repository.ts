import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { clickhouseTimestamp, isoFromClickhouse } from '../../common/dates/clickhouse-time';
import type { Filters } from '../../cost-query/filters.types';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { groupedBy } from '../../common/collections/grouped-by';

// A budget as saved; what its periods, amounts and thresholds mean is src/budgets/budget-definition.ts.
export const BUDGET_PERIODS = ['monthly', 'quarterly', 'yearly'] as const;
export type BudgetPeriodKind = (typeof BUDGET_PERIODS)[number];

export const BUDGET_METRICS = ['amortized_cost', 'billed_cost'] as const;
export type BudgetMetric = (typeof BUDGET_METRICS)[number];

export const THRESHOLD_KINDS = ['actual', 'forecast'] as const;
export type ThresholdKind = (typeof THRESHOLD_KINDS)[number];

export interface BudgetThreshold {
  kind: ThresholdKind;
  percent: number;
}

export interface WebhookDestination {
  url: string;
  format: 'json' | 'slack' | 'teams';
}

/** A budget as saved (its latest version). Amounts are exact decimal text, in `currency`. */
export interface BudgetDefinition {
  name: string;
  filters: Filters;
  metric: BudgetMetric;
  currency: string;
  period: BudgetPeriodKind;
  amounts: Record<string, string>;
  thresholds: BudgetThreshold[];
  notify: WebhookDestination[];
}

/** A budget's latest version, as stored. */
export interface StoredBudget {
  budgetId: string;
  definition: BudgetDefinition;
  /** The canonical data scope of the key that made it ('' for none). */
  dataScope: string;
  /** The signing secret, sealed (secret-box.ts). */
  sealedSecret: string;
  createdAt: string;
  updatedAt: string;
  updatedBy: string;
  version: number;
}

export type AlertEventKind = 'fired' | 'withdrawn';

/** One alert of a threshold, as stored. */
export interface StoredAlert {
  budgetId: string;
  periodStart: string;
  periodEnd: string;
  kind: ThresholdKind;
  percent: number;
  event: AlertEventKind;
  at: string;
  eventId: string;
  payload: string;
  notify: WebhookDestination[];
}

export type AttemptOutcome = 'delivered' | 'retry' | 'dead';

/** One delivery attempt of an alert to one destination. */
export interface StoredAttempt {
  eventId: string;
  budgetId: string;
  destination: number;
  attempt: number;
  at: string;
  statusCode: number;
  error: string;
  outcome: AttemptOutcome;
  nextAttemptAt: string;
}

interface VersionRow {
  budget_id: string;
  created_at: string;
  definition: string;
  data_scope: string;
  signing_secret: string;
  deleted: number | string;
  created_by: string;
}

interface AlertRow {
  at_text: string;
  budget_id: string;
  period_start: string;
  period_end: string;
  threshold_kind: string;
  threshold_percent: number | string;
  event: string;
  event_id: string;
  payload: string;
  notify: string;
}

interface AttemptRow {
  event_id: string;
  budget_id: string;
  destination: number | string;
  attempt: number | string;
  status_code: number | string;
  error: string;
  outcome: string;
  next_attempt_text: string;
  at_text: string;
}

/** The SQL of budgets, their alerts and their webhook attempts. The organisation always comes from the key or session. */
@Injectable()
export class BudgetsRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  /** The organisation's budgets in force (latest version not a deletion), oldest first; `only` those ids when given. */
  async budgets(organizationId: string, only?: string | readonly string[]): Promise<StoredBudget[]> {
    const rows = await this.clickhouse.query<VersionRow>(
      `SELECT budget_id, created_at, definition, data_scope, signing_secret, deleted, created_by
       FROM ${this.clickhouse.table('budget_versions')}
       WHERE organization_id = {organization_id:UUID} ${only === undefined ? '' : 'AND budget_id IN {budget_ids:Array(UUID)}'}
       ORDER BY budget_id, created_at, version_id`,
      { organization_id: organizationId, ...idsParameter(only) },
      { organizationId },
    );
    return latestVersions(rows);
  }

  /** The organisations that have budgets (the evaluator's round), with a digest of their versions. */
  async organizations(): Promise<Array<{ organizationId: string; versions: string }>> {
    const rows = await this.clickhouse.query<{ organization_id: string; versions: string }>(
      `SELECT organization_id, concat(toString(count()), '/', toString(max(created_at))) AS versions
       FROM ${this.clickhouse.table('budget_versions')}
       GROUP BY organization_id`,
    );
    return rows.map((row) => ({ organizationId: row.organization_id, versions: row.versions }));
  }

  /** Saves a version (a definition) or a deletion (none) of one budget. */
  async save(
    organizationId: string,
    budgetId: string,
    record: { definition?: BudgetDefinition; dataScope: string; sealedSecret: string; createdBy: string },
  ): Promise<void> {
    await this.clickhouse.insert('budget_versions', [
      {
        organization_id: organizationId,
        budget_id: budgetId,
        created_at: clickhouseTimestamp(new Date()),
        version_id: randomUUID(),
        definition: record.definition ? JSON.stringify(record.definition) : '',
        data_scope: record.dataScope,
        signing_secret: record.sealedSecret,
        deleted: record.definition ? 0 : 1,
        created_by: record.createdBy,
      },
    ]);
  }

  /** The alerts of the organisation's budgets since `since` (ISO), oldest first; of one budget when named. */
  async alerts(organizationId: string, since: string, only?: string | readonly string[]): Promise<StoredAlert[]> {
    const rows = await this.clickhouse.query<AlertRow>(
      `SELECT budget_id, period_start, period_end,
              threshold_kind, threshold_percent, event, at AS at_text, event_id, payload, notify
       FROM ${this.clickhouse.table('budget_alerts')}
       WHERE organization_id = {organization_id:UUID} AND at >= parseDateTime64BestEffort({since:String}, 3, 'UTC')
         ${only === undefined ? '' : 'AND budget_id IN {budget_ids:Array(UUID)}'}
       ORDER BY at, event_id`,
      { organization_id: organizationId, since, ...idsParameter(only) },
      { organizationId },
    );
    return rows.map(alertOf);
  }

  async recordAlerts(organizationId: string, alerts: readonly StoredAlert[]): Promise<void> {
    if (alerts.length === 0) return;
    await this.clickhouse.insert(
      'budget_alerts',
      alerts.map((alert) => ({
        organization_id: organizationId,
        budget_id: alert.budgetId,
        period_start: alert.periodStart,
        period_end: alert.periodEnd,
        threshold_kind: alert.kind,
        threshold_percent: alert.percent,
        event: alert.event,
        at: clickhouseTimestamp(new Date(alert.at)),
        event_id: alert.eventId,
        payload: alert.payload,
        notify: JSON.stringify(alert.notify),
      })),
    );
  }

  /** Every organisation's (or one's) alerts since `since` with destinations, and their attempts (the deliveries still to make). */
  async deliveries(
    since: string,
    organizationId?: string,
  ): Promise<{ alerts: Array<StoredAlert & { organizationId: string }>; attempts: StoredAttempt[] }> {
    const alerts = await this.clickhouse.query<AlertRow & { organization_id: string }>(
      `SELECT organization_id, budget_id, period_start,
              period_end, threshold_kind, threshold_percent, event, at AS at_text,
              event_id, payload, notify
       FROM ${this.clickhouse.table('budget_alerts')}
       WHERE at >= parseDateTime64BestEffort({since:String}, 3, 'UTC') AND notify != '[]'
         ${organizationId === undefined ? '' : 'AND organization_id = {organization_id:UUID}'}
       ORDER BY at, event_id`,
      { since, ...(organizationId === undefined ? {} : { organization_id: organizationId }) },
    );
    if (alerts.length === 0) return { alerts: [], attempts: [] };
    const attempts = await this.clickhouse.query<AttemptRow>(
      `SELECT event_id, budget_id, destination, attempt, at AS at_text,
              status_code, error, outcome, next_attempt_at AS next_attempt_text
       FROM ${this.clickhouse.table('budget_webhook_attempts')}
       WHERE event_id IN {event_ids:Array(UUID)}
       ORDER BY event_id, destination, attempt`,
      { event_ids: alerts.map((alert) => alert.event_id) },
    );
    return { alerts: alerts.map((row) => ({ ...alertOf(row), organizationId: row.organization_id })), attempts: attempts.map(attemptOf) };
  }

  /** The attempts of one budget's alerts since `since`, oldest first. */
  async attempts(organizationId: string, budgetId: string, since: string): Promise<StoredAttempt[]> {
    const rows = await this.clickhouse.query<AttemptRow>(
      `SELECT event_id, budget_id, destination, attempt, at AS at_text,
              status_code, error, outcome, next_attempt_at AS next_attempt_text
       FROM ${this.clickhouse.table('budget_webhook_attempts')}
       WHERE organization_id = {organization_id:UUID} AND budget_id = {budget_id:UUID}
         AND at >= parseDateTime64BestEffort({since:String}, 3, 'UTC')
       ORDER BY at, event_id, destination, attempt`,
      { organization_id: organizationId, budget_id: budgetId, since },
      { organizationId },
    );
    return rows.map(attemptOf);
  }

  async recordAttempt(organizationId: string, attempt: StoredAttempt): Promise<void> {
    await this.clickhouse.insert('budget_webhook_attempts', [
      {
        organization_id: organizationId,
        budget_id: attempt.budgetId,
        event_id: attempt.eventId,
        destination: attempt.destination,
        attempt: attempt.attempt,
        at: clickhouseTimestamp(new Date(attempt.at)),
        status_code: attempt.statusCode,
        error: attempt.error,
        outcome: attempt.outcome,
        next_attempt_at: clickhouseTimestamp(new Date(attempt.nextAttemptAt)),
      },
    ]);
  }
}

/** Per budget, its latest version (numbered by how many it has) unless that is a deletion. */
function latestVersions(rows: readonly VersionRow[]): StoredBudget[] {
  return [...groupedBy(rows, (row) => row.budget_id).values()]
    .filter((versions) => Number(versions.at(-1)!.deleted) === 0)
    .map((versions) => {
      const latest = versions.at(-1)!;
      return {
        budgetId: latest.budget_id,
        definition: JSON.parse(latest.definition) as BudgetDefinition,
        dataScope: latest.data_scope,
        sealedSecret: latest.signing_secret,
        createdAt: isoFromClickhouse(versions[0].created_at),
        updatedAt: isoFromClickhouse(latest.created_at),
        updatedBy: latest.created_by,
        version: versions.length,
      };
    })
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.budgetId < b.budgetId ? -1 : 1));
}

function alertOf(row: AlertRow): StoredAlert {
  return {
    budgetId: row.budget_id,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    kind: row.threshold_kind as ThresholdKind,
    percent: Number(row.threshold_percent),
    event: row.event as AlertEventKind,
    at: isoFromClickhouse(row.at_text),
    eventId: row.event_id,
    payload: row.payload,
    notify: JSON.parse(row.notify) as WebhookDestination[],
  };
}

function attemptOf(row: AttemptRow): StoredAttempt {
  return {
    eventId: row.event_id,
    budgetId: row.budget_id,
    destination: Number(row.destination),
    attempt: Number(row.attempt),
    at: isoFromClickhouse(row.at_text),
    statusCode: Number(row.status_code),
    error: row.error,
    outcome: row.outcome as AttemptOutcome,
    nextAttemptAt: isoFromClickhouse(row.next_attempt_text),
  };
}

/** The budget_ids parameter of a statement narrowed to some budgets (one id or several); none for all of them. */
function idsParameter(only: string | readonly string[] | undefined): { budget_ids?: readonly string[] } {
  return only === undefined ? {} : { budget_ids: typeof only === 'string' ? [only] : only };
}
