import { formatMonthNumber, monthNumber } from '../common/dates/calendar-date';
import { compileWhere, resolveDateRange, WhereOptions } from './filter-compiler';
import { FilterFields, Filters, OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/**
 * Invoices reproduced from the cost rows: per billing account × billing period × invoice × billing currency, the
 * exact sums a provider's invoice states (FOCUS: the BilledCost of an InvoiceId's rows adds up to the invoice), in
 * the invoice's own currency, never converted.
 */

/** FOCUS ChargeCategory values an invoice is broken down by; any other (or none) is `other`. */
export const CHARGE_CATEGORIES = ['usage', 'purchase', 'tax', 'credit', 'adjustment'] as const;
export type ChargeCategory = (typeof CHARGE_CATEGORIES)[number];

/** One invoice as the API states it: money as exact decimal text. */
export interface Invoice {
  billing_account_id: string;
  billing_period: string;
  invoice_id: string;
  billing_currency: string;
  invoice_issuer: string;
  line_items: string;
  billed_cost: string;
  effective_cost: string;
  /** BilledCost of the rows of each category that are not corrections, and of the rest. */
  charges: Record<ChargeCategory | 'other', string>;
  /** BilledCost of the rows whose ChargeClass is Correction (of earlier periods' charges), apart from the categories. */
  corrections: string;
}

/** A row of invoiceTotalsSql (its sums under aliases that shadow no column). */
export interface InvoiceTotalsRow {
  integration_id?: string;
  billing_account_id: string;
  billing_period: string;
  invoice_id: string;
  billing_currency: string;
  issuer: string;
  row_count: string;
  total_billed: string;
  total_effective: string;
  by_category: Record<ChargeCategory | 'other', string>;
  total_corrections: string;
}

export function readInvoice(row: InvoiceTotalsRow): Invoice {
  return {
    billing_account_id: row.billing_account_id,
    billing_period: row.billing_period,
    invoice_id: row.invoice_id,
    billing_currency: row.billing_currency,
    invoice_issuer: row.issuer,
    line_items: row.row_count,
    billed_cost: row.total_billed,
    effective_cost: row.total_effective,
    charges: row.by_category,
    corrections: row.total_corrections,
  };
}

const CORRECTION = "charge_class = 'Correction'";

/**
 * The per-invoice sums of the rows WHERE `where` holds (a WHERE body over cost_line_items or a table shaped like
 * it): one statement the invoices endpoint and the importer (the invoices of a staged import, and of the periods it
 * replaces, per integration: `perIntegration`) share. Money as exact Decimal text; every category sum and the
 * corrections add up to billed_cost.
 */
export function invoiceTotalsSql(table: string, where: string, options: { limit?: string; perIntegration?: boolean } = {}): string {
  const category = (name: string) => `toString(sumIf(billed_cost, NOT ${CORRECTION} AND lower(charge_category) = '${name}'))`;
  const known = CHARGE_CATEGORIES.map((name) => `'${name}'`).join(', ');
  const keys = [
    ...(options.perIntegration ? ['integration_id'] : []),
    'billing_account_id',
    'billing_period',
    'invoice_id',
    'billing_currency',
  ];
  return [
    `SELECT ${keys.join(', ')},`,
    // Aliases that shadow no column: ClickHouse would read an alias named billed_cost inside the other sums.
    "  argMax(invoice_issuer, invoice_issuer != '') AS issuer, toString(count()) AS row_count,",
    '  toString(sum(billed_cost)) AS total_billed, toString(sum(amortized_cost)) AS total_effective,',
    `  map(${CHARGE_CATEGORIES.map((name) => `'${name}', ${category(name)}`).join(', ')},`,
    `      'other', toString(sumIf(billed_cost, NOT ${CORRECTION} AND lower(charge_category) NOT IN (${known})))) AS by_category,`,
    `  toString(sumIf(billed_cost, ${CORRECTION})) AS total_corrections`,
    `FROM ${table}`,
    `WHERE ${where}`,
    `GROUP BY ${keys.join(', ')}`,
    'ORDER BY billing_period, billing_account_id, invoice_id, billing_currency',
    ...(options.limit ? [`LIMIT ${options.limit}`] : []),
  ].join('\n');
}

/** What POST /invoices asks: the billing periods (from billingPeriods, else every month the date window touches) and the other filters. */
export interface InvoicesQuery {
  scope: OrganizationScope;
  filters: Filters;
  today: string;
  defaultWindowDays: number;
}

/**
 * The statement of POST /invoices: whole billing periods (an invoice is never cut by usage dates), with the
 * request's other filters and the key's data scope. `rowLimit` caps the invoices fetched.
 */
export function buildInvoicesQuery(table: string, query: InvoicesQuery, rowLimit: number): CompiledSql {
  const params = new SqlParameters();
  const inclusions = query.filters.inclusions ?? {};
  const filters: Filters = {
    inclusions: { ...withoutDates(inclusions), billingPeriods: invoicePeriods(inclusions, query) },
    // Excluded billing periods stay excluded; a usage-date exclusion would cut invoices, so it does not apply.
    exclusions: { ...query.filters.exclusions, dateRange: undefined },
  };
  const where = compileWhere(query.scope, filters, params, { today: query.today, defaultWindowDays: query.defaultWindowDays });
  return { sql: invoiceTotalsSql(table, where, { limit: params.add('UInt64', rowLimit) }), params: params.toObject() };
}

/** The billing periods an invoices request selects: its billingPeriods, else the months of its date window. */
export function invoicePeriods(inclusions: FilterFields, options: WhereOptions): string[] {
  if (inclusions.billingPeriods?.length) return [...new Set(inclusions.billingPeriods)].sort();
  const range = resolveDateRange(inclusions, options)!;
  const months: string[] = [];
  for (let month = monthNumber(range.start); month <= monthNumber(range.end); month++) months.push(formatMonthNumber(month).slice(0, 7));
  return months;
}

function withoutDates(fields: FilterFields): FilterFields {
  const { dateRange: _dateRange, billingPeriods: _billingPeriods, ...rest } = fields;
  return rest;
}
