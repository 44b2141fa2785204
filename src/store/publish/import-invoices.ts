import { InvoiceTotalsRow, invoiceTotalsSql } from '../../cost-query/invoices.query';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { costRowsTable } from '../cost-rows';
import { IMPORT_STATEMENT_SETTINGS } from '../statement-text';

/** One invoice of an import, as its summary prints it: what to reconcile against the provider's invoice. */
export interface ImportedInvoice {
  billingAccountId: string;
  billingPeriod: string;
  invoiceId: string;
  currency: string;
  integrationId: string;
  lineItems: number;
  billedCost: string;
  effectiveCost: string;
}

/** An invoice a re-import changed: its Σ BilledCost before and after (null: it did not exist then). */
export interface InvoiceChange {
  billingAccountId: string;
  billingPeriod: string;
  invoiceId: string;
  currency: string;
  before: string | null;
  after: string | null;
}

/** The import units an invoice belongs to: its rows' integration and billing period. */
export interface ImportUnit {
  integrationId: string;
  billingPeriod: string;
}

/** The invoices of the import's staged rows (all of one organisation). */
export async function stagedInvoices(clickhouse: ClickhouseService, stagingTable: string): Promise<ImportedInvoice[]> {
  return invoicesOf(clickhouse, stagingTable, '1', {});
}

/** The invoices the import's units hold now, before it replaces them (none for a unit never imported). */
export async function publishedInvoices(
  clickhouse: ClickhouseService,
  organizationId: string,
  units: ImportUnit[],
): Promise<ImportedInvoice[]> {
  if (units.length === 0) return [];
  const where =
    'organization_id = {organization_id:UUID} AND integration_id IN {integrations:Array(String)} AND billing_period IN {periods:Array(String)}';
  const invoices = await invoicesOf(clickhouse, costRowsTable(clickhouse), where, {
    organization_id: organizationId,
    integrations: [...new Set(units.map((unit) => unit.integrationId))],
    periods: [...new Set(units.map((unit) => unit.billingPeriod))],
  });
  const wanted = new Set(units.map(unitKey));
  return invoices.filter((invoice) => wanted.has(unitKey(invoice)));
}

async function invoicesOf(
  clickhouse: ClickhouseService,
  table: string,
  where: string,
  params: Record<string, unknown>,
): Promise<ImportedInvoice[]> {
  // Per integration too: a re-import replaces (integration, period) units, so its changes are counted per unit.
  const sql = `${invoiceTotalsSql(table, where, { perIntegration: true })}\n${IMPORT_STATEMENT_SETTINGS}`;
  const rows = await clickhouse.query<InvoiceTotalsRow>(sql, params);
  return rows.map((row) => ({
    billingAccountId: row.billing_account_id,
    billingPeriod: row.billing_period,
    invoiceId: row.invoice_id,
    currency: row.billing_currency,
    integrationId: row.integration_id!,
    lineItems: Number(row.row_count),
    billedCost: row.total_billed,
    effectiveCost: row.total_effective,
  }));
}

/**
 * What a re-import changed, invoice by invoice, over the units it replaced: every invoice whose Σ BilledCost differs,
 * appeared or disappeared (a unit imported for the first time changes nothing that existed, so it is not listed).
 */
export function invoiceChanges(before: ImportedInvoice[], after: ImportedInvoice[]): InvoiceChange[] {
  const replaced = new Set(before.map(unitKey));
  // In the order the summary lists them: by period, billing account, invoice, currency (then integration).
  const key = (invoice: ImportedInvoice) =>
    [invoice.billingPeriod, invoice.billingAccountId, invoice.invoiceId, invoice.currency, invoice.integrationId].join('\n');
  const was = new Map(before.map((invoice) => [key(invoice), invoice]));
  const now = new Map(after.filter((invoice) => replaced.has(unitKey(invoice))).map((invoice) => [key(invoice), invoice]));
  const changes: InvoiceChange[] = [];
  for (const id of [...new Set([...was.keys(), ...now.keys()])].sort()) {
    const [old, fresh] = [was.get(id), now.get(id)];
    if (old && fresh && sameDecimal(old.billedCost, fresh.billedCost)) continue;
    const invoice = (fresh ?? old)!;
    changes.push({
      billingAccountId: invoice.billingAccountId,
      billingPeriod: invoice.billingPeriod,
      invoiceId: invoice.invoiceId,
      currency: invoice.currency,
      before: old?.billedCost ?? null,
      after: fresh?.billedCost ?? null,
    });
  }
  return changes;
}

function unitKey(unit: ImportUnit): string {
  return `${unit.integrationId}\n${unit.billingPeriod}`;
}

/** ClickHouse writes each Decimal's shortest text: equal values, equal texts. */
function sameDecimal(a: string, b: string): boolean {
  return a === b;
}

/** Billing accounts shown by name in a duplicate-import warning before the rest are counted. */
const DUPLICATES_SHOWN = 5;

/**
 * Warnings for the billing accounts this import brought whose same billing periods another integration of the
 * organisation holds too: the same export imported twice (e.g. by `ingest focus` and by a folder source) counts twice.
 */
export async function duplicateImportWarnings(
  clickhouse: ClickhouseService,
  organizationId: string,
  imported: readonly ImportedInvoice[],
): Promise<string[]> {
  const accounts = imported.filter((invoice) => invoice.billingAccountId !== '');
  if (accounts.length === 0) return [];
  const rows = await clickhouse.query<{ billing_account_id: string; billing_period: string; integrations: string[] }>(
    `SELECT billing_account_id, billing_period, arraySort(groupUniqArray(integration_id)) AS integrations
     FROM ${costRowsTable(clickhouse)}
     WHERE organization_id = {organization_id:UUID} AND billing_period IN {periods:Array(String)}
       AND billing_account_id IN {accounts:Array(String)} AND integration_id NOT IN {integrations:Array(String)}
     GROUP BY billing_account_id, billing_period
     ORDER BY billing_account_id, billing_period
     ${IMPORT_STATEMENT_SETTINGS}`,
    {
      organization_id: organizationId,
      periods: [...new Set(accounts.map((invoice) => invoice.billingPeriod))],
      accounts: [...new Set(accounts.map((invoice) => invoice.billingAccountId))],
      integrations: [...new Set(accounts.map((invoice) => invoice.integrationId))],
    },
  );
  const imports = new Set(accounts.map((invoice) => `${invoice.billingAccountId}\u0000${invoice.billingPeriod}`));
  const twice = rows.filter((row) => imports.has(`${row.billing_account_id}\u0000${row.billing_period}`));
  return twice
    .slice(0, DUPLICATES_SHOWN)
    .map(
      (row) =>
        `billing account ${row.billing_account_id}, period ${row.billing_period}, is also imported under integration ${row.integrations.join(', ')}: ` +
        'its costs now count twice. Import an account’s exports under one integration (one data source, or --integration).',
    )
    .concat(
      twice.length > DUPLICATES_SHOWN ? [`… and ${twice.length - DUPLICATES_SHOWN} more billing account periods imported twice.`] : [],
    );
}
