import type { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import { migrate } from '../../src/store/schema/migrator';

/**
 * The store of an older release (test/e2e/upgrades.e2e-spec.ts): the schema of migrations 1..N only, applied by the
 * repository's own migrator (`upToVersion`), filled with cost rows written in the shape of that schema — an INSERT
 * naming exactly the columns cost_line_items had then, as the loaders of that time wrote them — so the test can run
 * today's `migrate` over it and compare every answer with values computed from these rows.
 *
 * Any version N works; the test keeps two releases: 1 (migration 0001: the first cost table, no currency, invoice or
 * import time) and 23 (the release before the audit trail and sign-in, migrations 0024 and 0025), and the versions
 * just before the multi-statement migrations it interrupts.
 */

/** cost_line_items as migration 0001 created it. */
const V1_COLUMNS = [
  'organization_id',
  'usage_date',
  'billing_period',
  'cost_layer',
  'cloud',
  'service',
  'resource_family',
  'region',
  'instance_type',
  'usage_type',
  'cost_type',
  'account_id',
  'account_name',
  'integration_id',
  'resource_tags',
  'cost_categories',
  'amortized_cost',
  'billed_cost',
  'cash_cost',
  'on_demand_cost',
  'enterprise_discount_savings',
  'product_discount_savings',
  'partner_discount_savings',
  'commitment_savings',
  'spot_savings',
  'other_savings',
] as const;

/** The currency and invoice columns of migration 0016. */
const V16_COLUMNS = ['billing_currency', 'billing_account_id', 'invoice_id', 'invoice_issuer', 'charge_category', 'charge_class'] as const;

/**
 * The columns the loaders of the release at `version` wrote: 0001's, and from 0016 on its currency and invoice
 * columns too (the FOCUS importer of then wrote them all); imported_at (0010) was left to its DEFAULT now() by all.
 */
export function writtenColumns(version: number): readonly string[] {
  return version >= 16 ? [...V1_COLUMNS, ...V16_COLUMNS] : V1_COLUMNS;
}

export const MONEY_COLUMNS = V1_COLUMNS.slice(16) as readonly string[];

export type OldRow = Record<string, string | Record<string, string>>;

export const SERVICES = ['Amazon EC2', 'Amazon S3', 'AWS Lambda'] as const;
export const REGIONS = ['us-east-1', 'eu-west-1'] as const;
export const ACCOUNTS = [
  { id: '111111111111', name: 'Production' },
  { id: '222222222222', name: 'Staging' },
] as const;
export const TEAMS = ['web', 'data'] as const;
/** Two months; the weekly and monthly edges included (a Monday, a month's last and first days). */
export const DAYS = ['2025-03-03', '2025-03-17', '2025-03-31', '2025-04-01', '2025-04-15', '2025-04-30'] as const;
export const ROW_COUNT = 12;

/** cost_type of the n-th row: mostly usage, and one each of the kinds 0016 reads a charge category from. */
export function costTypeOf(n: number): string {
  return { 4: 'Spot Usage', 7: 'Tax', 10: 'Credit (Correction)' }[n] ?? 'Usage';
}

/** A distinct amount with 10 decimal places for row `n`, money column `k` (negative for the credit). */
export function amountOf(n: number, k: number): string {
  const text = `${((n * 17 + k * 5) % 97) + 1}.${String(((n + 3) * 7_919 + (k + 1) * 104_729 * (n + 1)) % 10_000_000_000).padStart(10, '0')}`;
  return costTypeOf(n).startsWith('Credit') ? `-${text}` : text;
}

/**
 * The estate, deterministic but for the organisation: ROW_COUNT rows over DAYS, SERVICES, REGIONS and ACCOUNTS, a
 * `team` tag on most rows (none on every fifth), a `Unit` cost category on every third. Exactly the columns of
 * writtenColumns(version); from 16 on the invoice columns as the FOCUS importer wrote them (USD, two invoices).
 */
export function oldEstate(organizationId: string, version: number): OldRow[] {
  return Array.from({ length: ROW_COUNT }, (_, n) => {
    const usageDate = DAYS[n % DAYS.length];
    const account = ACCOUNTS[Math.floor(n / 3) % 2];
    const costType = costTypeOf(n);
    const row: OldRow = {
      organization_id: organizationId,
      usage_date: usageDate,
      billing_period: usageDate.slice(0, 7),
      cost_layer: 'Infrastructure',
      cloud: 'AWS',
      service: SERVICES[n % 3],
      resource_family: 'Compute',
      region: REGIONS[n % 2],
      instance_type: 'm6i.large',
      usage_type: `usage-${n % 4}`,
      cost_type: costType,
      account_id: account.id,
      account_name: account.name,
      integration_id: 'aws-main',
      resource_tags: n % 5 === 0 ? {} : { team: TEAMS[n % 2] },
      cost_categories: n % 3 === 0 ? { Unit: 'Retail' } : {},
      ...Object.fromEntries(MONEY_COLUMNS.map((column, k) => [column, amountOf(n, k)])),
    };
    if (version >= 16) {
      Object.assign(row, {
        billing_currency: 'USD',
        billing_account_id: account.id,
        invoice_id: `INV-${usageDate.slice(0, 7)}-${account.id.slice(0, 1)}`,
        invoice_issuer: 'Amazon Web Services',
        charge_category: costType === 'Spot Usage' ? 'Usage' : costType.replace(' (Correction)', ''),
        charge_class: costType.endsWith('(Correction)') ? 'Correction' : '',
      });
    }
    return row;
  });
}

/**
 * Migrates `clickhouse`'s database up to `version` only (on every node of a cluster, with the Distributed tables of
 * the tables of then) and writes `rows` with an INSERT naming the columns of that release's writers. Fails if the
 * table of then does not have exactly those columns (besides imported_at, which no writer named).
 */
export async function buildOldStore(clickhouse: ClickhouseService, version: number, rows: OldRow[]): Promise<void> {
  const applied = await migrate(clickhouse, { upToVersion: version });
  if (applied.length !== version || applied.at(-1)?.version !== version) {
    throw new Error(`the old store must be new: applied ${applied.map((m) => m.version).join(', ')} instead of 1..${version}`);
  }
  const columns = await clickhouse.query<{ name: string }>(
    `SELECT name FROM system.columns WHERE database = {database:String} AND table = 'cost_line_items' AND name != 'imported_at' ORDER BY name`,
    { database: clickhouse.database },
  );
  const expected = [...writtenColumns(version)].sort();
  if (JSON.stringify(columns.map((c) => c.name)) !== JSON.stringify(expected)) {
    throw new Error(
      `cost_line_items at ${version} has ${columns.map((c) => c.name).join(', ')}; the writers of then wrote ${expected.join(', ')}`,
    );
  }
  await clickhouse.client.insert({
    table: clickhouse.table('cost_line_items'),
    columns: [...writtenColumns(version)] as [string, ...string[]],
    values: rows.map((row) => Object.fromEntries(writtenColumns(version).map((column) => [column, row[column]]))),
    format: 'JSONEachRow',
  });
}
