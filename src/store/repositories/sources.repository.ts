import { Injectable } from '@nestjs/common';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { clickhouseTimestamp } from '../../common/dates/clickhouse-time';

/**
 * How a source's exports are laid out, each by its cloud's rule for when a delivery is complete:
 * - `aws-data-exports`: AWS Data Exports (FOCUS 1.0), a manifest per billing period and execution listing its data files;
 * - `azure-exports`: Azure Cost Management exports, a `manifest.json` per run listing its parts and their sizes;
 * - `oci-focus`: OCI's daily FOCUS reports (`YYYY/MM/DD/*.csv.gz`), a month complete once its files settled;
 * - `focus-files`: any folder of FOCUS files, complete once none changed for the settle time;
 * - `metrics-files`: a folder of business metrics' daily values (CSV `date,value[,dimension value]`), a metric's files
 *   complete once none changed for the settle time (not cost data: its integration id only names the source).
 */
export const SOURCE_KINDS = ['aws-data-exports', 'azure-exports', 'oci-focus', 'focus-files', 'metrics-files'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** What was last imported for one scope of a source. */
export interface ImportedDelivery {
  scope: string;
  order: string;
  fingerprint: string;
}

/** A data source as stored. */
export interface SourceRow {
  organization_id: string;
  source_id: string;
  integration_id: string;
  kind: SourceKind;
  location: string;
  /** JSON of SourceOptions. */
  options: string;
  created_at: string;
}

/** What one check of a source found and did. */
export const CHECK_OUTCOMES = ['imported', 'unchanged', 'incomplete', 'refused', 'unreadable', 'unreachable', 'failed'] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

export type CheckRow = {
  organization_id: string;
  source_id: string;
  checked_at: string;
  outcome: CheckOutcome;
  scope: string;
  delivery: string;
  delivery_order: string;
  fingerprint: string;
  delivered_at: string | null;
  billing_periods: string[];
  rows: number;
  /** JSON: PeriodChange[]. */
  changes: string;
  message: string;
};

/** The columns of a check as CheckRow reads them (instants as text). */
const CHECK_COLUMNS = `organization_id, source_id, toString(checked_at) AS checked_at, outcome, scope, delivery, delivery_order, fingerprint,
  if(isNull(delivered_at), NULL, toString(delivered_at)) AS delivered_at, billing_periods, rows, changes, message`;

/** Σ of one billing period in one currency, exact Decimal text. */
export interface PeriodTotal {
  billing_period: string;
  currency: string;
  billed: string;
  amortized: string;
}

/** The SQL of data sources and their checks. The organisation comes from the caller's key or the operator's --org. */
@Injectable()
export class SourcesRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  async list(organizationId: string): Promise<SourceRow[]> {
    return this.clickhouse.query<SourceRow>(
      `${this.sourcesSql()} WHERE organization_id = {organization_id:UUID} AND removed = 0 ORDER BY created_at, source_id`,
      { organization_id: organizationId },
    );
  }

  /** Every organisation's sources: what the worker checks. */
  async all(): Promise<SourceRow[]> {
    return this.clickhouse.query<SourceRow>(`${this.sourcesSql()} WHERE removed = 0 ORDER BY organization_id, created_at, source_id`);
  }

  async find(organizationId: string, sourceId: string): Promise<SourceRow | undefined> {
    const [row] = await this.clickhouse.query<SourceRow>(
      `${this.sourcesSql()} WHERE organization_id = {organization_id:UUID} AND source_id = {source_id:UUID} AND removed = 0`,
      { organization_id: organizationId, source_id: sourceId },
    );
    return row;
  }

  async save(source: SourceRow, removed = false): Promise<void> {
    const now = clickhouseTimestamp(new Date());
    await this.clickhouse.insert('ingest_sources', [{ ...source, updated_at: now, removed: removed ? 1 : 0 }]);
  }

  async recordCheck(check: CheckRow): Promise<void> {
    await this.clickhouse.insert('ingest_source_checks', [{ ...check }]);
  }

  /** Per scope, the delivery imported last: what a newer delivery must differ from and not be older than. */
  async imported(organizationId: string, sourceId: string): Promise<ImportedDelivery[]> {
    return this.clickhouse.query<ImportedDelivery>(
      `SELECT scope, argMax(delivery_order, checked_at) AS \`order\`, argMax(fingerprint, checked_at) AS fingerprint
       FROM ${this.clickhouse.table('ingest_source_checks')}
       WHERE organization_id = {organization_id:UUID} AND source_id = {source_id:UUID} AND outcome = 'imported'
       GROUP BY scope`,
      { organization_id: organizationId, source_id: sourceId },
    );
  }

  /** Fingerprints already reported as refused, unreadable or incomplete: reported once, not at every poll. */
  async reported(organizationId: string, sourceId: string): Promise<Set<string>> {
    const rows = await this.clickhouse.query<{ key: string }>(
      `SELECT DISTINCT concat(outcome, ':', fingerprint) AS key FROM ${this.clickhouse.table('ingest_source_checks')}
       WHERE organization_id = {organization_id:UUID} AND source_id = {source_id:UUID}
         AND outcome IN ('refused', 'unreadable', 'incomplete')`,
      { organization_id: organizationId, source_id: sourceId },
    );
    return new Set(rows.map((r) => r.key));
  }

  /**
   * Per source of the organisation (or of `sourceId` only), its newest check, newest import and newest problem, each
   * marked by `role`: what a source's status is made of, however many checks found nothing new since.
   */
  async latest(
    organizationId: string,
    problems: readonly CheckOutcome[],
    sourceId?: string,
  ): Promise<Array<CheckRow & { role: 'last' | 'import' | 'problem' }>> {
    const table = this.clickhouse.table('ingest_source_checks');
    const scope = `organization_id = {organization_id:UUID}${sourceId ? ' AND source_id = {source_id:UUID}' : ''}`;
    const newest = (role: string, condition: string) =>
      `SELECT '${role}' AS role, ${CHECK_COLUMNS}
       FROM ${table} WHERE ${scope}${condition} ORDER BY checked_at DESC LIMIT 1 BY source_id`;
    return this.clickhouse.query(
      [
        newest('last', ''),
        newest('import', " AND outcome = 'imported'"),
        newest('problem', ' AND outcome IN {problems:Array(String)}'),
      ].join('\nUNION ALL\n'),
      { organization_id: organizationId, source_id: sourceId ?? '', problems: [...problems] },
    );
  }

  /** A source's history: its newest checks that found or did something (not `unchanged`), newest first. */
  async history(organizationId: string, sourceId: string, limit: number): Promise<CheckRow[]> {
    return this.clickhouse.query<CheckRow>(
      `SELECT ${CHECK_COLUMNS} FROM ${this.clickhouse.table('ingest_source_checks')}
       WHERE organization_id = {organization_id:UUID} AND source_id = {source_id:UUID} AND outcome != 'unchanged'
       ORDER BY checked_at DESC LIMIT {limit:UInt32}`,
      { organization_id: organizationId, source_id: sourceId, limit },
    );
  }

  /** Σ billed and amortized cost per billing period and currency of one integration: a restatement's before and after. */
  async periodTotals(organizationId: string, integrationId: string, billingPeriods: string[]): Promise<PeriodTotal[]> {
    if (billingPeriods.length === 0) return [];
    return this.clickhouse.query<PeriodTotal>(
      `SELECT billing_period, billing_currency AS currency,
              toString(sum(billed_cost)) AS billed, toString(sum(amortized_cost)) AS amortized
       FROM ${this.clickhouse.table('cost_line_items')}
       WHERE organization_id = {organization_id:UUID} AND integration_id = {integration_id:String}
         AND billing_period IN {billing_periods:Array(String)}
       GROUP BY billing_period, currency ORDER BY billing_period, currency`,
      { organization_id: organizationId, integration_id: integrationId, billing_periods: billingPeriods },
      { organizationId },
    );
  }

  /** The billing periods an integration has costs in. */
  async integrationPeriods(organizationId: string, integrationId: string): Promise<string[]> {
    const rows = await this.clickhouse.query<{ billing_period: string }>(
      `SELECT DISTINCT billing_period FROM ${this.clickhouse.table('cost_line_items')}
       WHERE organization_id = {organization_id:UUID} AND integration_id = {integration_id:String} ORDER BY billing_period`,
      { organization_id: organizationId, integration_id: integrationId },
      { organizationId },
    );
    return rows.map((r) => r.billing_period);
  }

  private sourcesSql(): string {
    return `SELECT organization_id, source_id, integration_id, kind, location, options, toString(created_at) AS created_at, removed
       FROM ${this.clickhouse.table('ingest_sources')} FINAL`;
  }
}
