// modes: embedded server cluster — ingestion and ClickHouse SQL
import { parse } from 'csv-parse/sync';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { exact, Exact, sum, text } from '../support/money';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Invoices reproduced (issue 29 §5): POST /v1/cost-insights/invoices and the importer's per-invoice summary equal
 * the per-InvoiceId sums of the source files, computed here from the CSV text with exact BigInt arithmetic. A file of
 * this test's own (two billing accounts, two currencies, several invoices a period, every charge category, a
 * correction) and the FinOps Foundation's FOCUS sample (test/fixtures/focus).
 */
const INVOICES = '/v1/cost-insights/invoices';
const SAMPLE = join(__dirname, '../fixtures/focus/focus_sample.csv');
const HEADER = [
  'BilledCost',
  'EffectiveCost',
  'ListCost',
  'ChargeCategory',
  'ChargeClass',
  'ChargePeriodStart',
  'BillingPeriodStart',
  'BillingAccountId',
  'ServiceName',
  'ProviderName',
  'BillingCurrency',
  'InvoiceId',
  'InvoiceIssuerName',
] as const;
type Line = Record<(typeof HEADER)[number], string>;

const line = (
  billed: string,
  category: string,
  day: string,
  period: string,
  account: string,
  invoice: string,
  currency: string,
  chargeClass = '',
): Line => ({
  BilledCost: billed,
  EffectiveCost: billed,
  ListCost: billed,
  ChargeCategory: category,
  ChargeClass: chargeClass,
  ChargePeriodStart: `${day}T00:00:00Z`,
  BillingPeriodStart: `${period}-01T00:00:00Z`,
  BillingAccountId: account,
  ServiceName: account === '111' ? 'Amazon EC2' : 'Virtual Machines',
  ProviderName: account === '111' ? 'AWS' : 'Microsoft',
  BillingCurrency: currency,
  InvoiceId: invoice,
  InvoiceIssuerName: account === '111' ? 'Amazon Web Services, Inc.' : 'Microsoft Ireland Operations Ltd',
});

/** Two billing accounts (USD, EUR), September and October, several invoices, every category and a correction. */
const LINES: Line[] = [
  line('100.25', 'Usage', '2026-09-03', '2026-09', '111', 'INV-A-09', 'USD'),
  line('0.0000000001', 'Usage', '2026-09-30', '2026-09', '111', 'INV-A-09', 'USD'),
  line('5.01', 'Tax', '2026-09-30', '2026-09', '111', 'INV-A-09', 'USD'),
  line('-10', 'Credit', '2026-09-15', '2026-09', '111', 'INV-A-09', 'USD'),
  line('300', 'Purchase', '2026-09-01', '2026-09', '111', 'INV-A-09', 'USD'),
  line('-1.5', 'Usage', '2026-09-02', '2026-09', '111', 'INV-A-09', 'USD', 'Correction'),
  line('50', 'Usage', '2026-10-20', '2026-10', '111', 'INV-A-10', 'USD'),
  line('2.75', 'Adjustment', '2026-10-31', '2026-10', '111', 'INV-A-10', 'USD'),
  line('80.5', 'Usage', '2026-09-10', '2026-09', '222', 'INV-B-09', 'EUR'),
  line('16.905', 'Tax', '2026-09-30', '2026-09', '222', 'INV-B-09', 'EUR'),
  line('7', 'Usage', '2026-09-12', '2026-09', '222', 'INV-B-09M', 'EUR'),
  line('12', 'Usage', '2026-10-02', '2026-10', '222', 'INV-B-10', 'EUR'),
];

function csv(lines: Line[]): string {
  const quoted = (value: string) => `"${value.replace(/"/g, '""')}"`;
  return `${HEADER.join(',')}\n${lines.map((l) => HEADER.map((column) => quoted(l[column])).join(',')).join('\n')}\n`;
}

/** The invoices of `lines` as the API states them, computed from the file's own text. */
function expectedInvoices(lines: Line[]) {
  const groups = new Map<string, Line[]>();
  for (const l of lines) {
    // Joined by NUL, which sorts below every character: the order of the tuples, as ClickHouse orders them.
    const key = [l.BillingPeriodStart.slice(0, 7), l.BillingAccountId, l.InvoiceId, l.BillingCurrency].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  const of = (rows: Line[]) => text(sum(rows.map((r) => exact(r.BilledCost))));
  const category = (rows: Line[], name: string) =>
    of(rows.filter((r) => r.ChargeClass !== 'Correction' && r.ChargeCategory.toLowerCase() === name));
  return [...groups.keys()].sort().map((key) => {
    const rows = groups.get(key)!;
    const [period, account, invoice, currency] = key.split('\u0000');
    return {
      billing_account_id: account,
      billing_period: period,
      invoice_id: invoice,
      billing_currency: currency,
      invoice_issuer: rows[0].InvoiceIssuerName,
      line_items: String(rows.length),
      billed_cost: of(rows),
      effective_cost: text(sum(rows.map((r) => exact(r.EffectiveCost)))),
      charges: {
        usage: category(rows, 'usage'),
        purchase: category(rows, 'purchase'),
        tax: category(rows, 'tax'),
        credit: category(rows, 'credit'),
        adjustment: category(rows, 'adjustment'),
        other: '0',
      },
      corrections: of(rows.filter((r) => r.ChargeClass === 'Correction')),
    };
  });
}

describe('invoices reproduced from the cost rows', () => {
  let t: TestApp;
  let dir: string;
  let org: TestOrganization;
  const write = (name: string, lines: Line[]) => {
    const path = join(dir, name);
    writeFileSync(path, csv(lines));
    return path;
  };
  const invoices = (who: TestOrganization, filters: object) => t.http.post(INVOICES).set(who.auth).send({ filters });

  beforeAll(async () => {
    t = await TestApp.start();
    dir = join(process.env.E2E_TMP_DIR ?? '.test-tmp', `invoices-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    org = await t.newOrganization();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('imports a multi-invoice, multi-currency file: the summary and the endpoint equal the per-InvoiceId sums', async () => {
    const summary = await ingestFocus(t.clickhouse, { paths: [write('invoices.csv', LINES)], organizationId: org.organizationId });
    const expected = expectedInvoices(LINES);
    expect(summary.currencies).toEqual(['EUR', 'USD']);
    expect(
      summary.invoices.map((i) => [i.billingPeriod, i.billingAccountId, i.invoiceId, i.currency, String(i.lineItems), i.billedCost]),
    ).toEqual(expected.map((e) => [e.billing_period, e.billing_account_id, e.invoice_id, e.billing_currency, e.line_items, e.billed_cost]));
    expect(summary.restatedInvoices).toEqual([]); // nothing was there before

    const response = await invoices(org, { inclusions: { billingPeriods: ['2026-09', '2026-10'] } });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ invoices: expected, billing_periods: ['2026-09', '2026-10'] });
    // Categories and corrections add up to what the invoice bills.
    for (const invoice of response.body.data.invoices as ReturnType<typeof expectedInvoices>) {
      const parts: Exact[] = [...Object.values(invoice.charges), invoice.corrections].map(exact);
      expect(text(sum(parts))).toBe(invoice.billed_cost);
    }
  });

  it('selects whole billing periods from a date range, whatever the rows’ usage dates', async () => {
    const response = await invoices(org, { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-05' } } });
    expect(response.body.data.billing_periods).toEqual(['2026-10']);
    expect(response.body.data.invoices).toEqual(expectedInvoices(LINES.filter((l) => l.BillingPeriodStart.startsWith('2026-10'))));
  });

  it('shows a data-scoped key its slice of the invoices only', async () => {
    const azure = await t.keyFor(org.organizationId, ['cost:read'], { inclusions: { clouds: ['Azure'] } });
    const response = await invoices(azure, { inclusions: { billingPeriods: ['2026-09', '2026-10'] } });
    expect(response.body.data.invoices).toEqual(expectedInvoices(LINES.filter((l) => l.ProviderName === 'Microsoft')));
  });

  it('reports what a re-import of restated periods changed, per invoice (before → after)', async () => {
    const restated = [
      ...LINES.filter((l) => l.InvoiceId !== 'INV-B-09M' && !(l.InvoiceId === 'INV-A-10' && l.ChargeCategory === 'Usage')),
      line('55', 'Usage', '2026-10-20', '2026-10', '111', 'INV-A-10', 'USD'),
      line('3', 'Usage', '2026-10-03', '2026-10', '222', 'INV-B-10b', 'EUR'),
    ];
    const summary = await ingestFocus(t.clickhouse, { paths: [write('restated.csv', restated)], organizationId: org.organizationId });
    expect(summary.restatedInvoices).toEqual([
      { billingAccountId: '222', billingPeriod: '2026-09', invoiceId: 'INV-B-09M', currency: 'EUR', before: '7', after: null },
      { billingAccountId: '111', billingPeriod: '2026-10', invoiceId: 'INV-A-10', currency: 'USD', before: '52.75', after: '57.75' },
      { billingAccountId: '222', billingPeriod: '2026-10', invoiceId: 'INV-B-10b', currency: 'EUR', before: null, after: '3' },
    ]);
    const response = await invoices(org, { inclusions: { billingPeriods: ['2026-09', '2026-10'] } });
    expect(response.body.data.invoices).toEqual(expectedInvoices(restated));
  });

  it('reproduces the FOCUS sample’s invoices per billing account and period', async () => {
    const sample = await t.newOrganization();
    await ingestFocus(t.clickhouse, { paths: [SAMPLE], organizationId: sample.organizationId });
    const rows = parse(readFileSync(SAMPLE, 'utf8'), { columns: true }) as Record<string, string>[];
    // The store keeps 10 decimal places (docs/focus-mapping.md: digits beyond are truncated); the sample has 11.
    const stored = (value: string) => {
      const [whole, fraction = ''] = (value === '' || value === 'NULL' ? '0' : value).split('.');
      return exact(fraction ? `${whole}.${fraction.slice(0, 10)}` : whole);
    };
    const byInvoice = new Map<string, Exact[]>();
    for (const row of rows) {
      const key = `${row.BillingPeriodStart.slice(0, 7)}|${row.BillingAccountId}`;
      byInvoice.set(key, [...(byInvoice.get(key) ?? []), stored(row.BilledCost)]);
    }
    const response = await invoices(sample, { inclusions: { billingPeriods: ['2024-09', '2024-10'] } });
    const stated = (
      response.body.data.invoices as { billing_period: string; billing_account_id: string; billed_cost: string; billing_currency: string }[]
    ).map((i) => [`${i.billing_period}|${i.billing_account_id}`, i.billed_cost, i.billing_currency]);
    expect(stated.sort()).toEqual([...byInvoice].map(([key, amounts]) => [key, text(sum(amounts)), 'USD']).sort());
    // Within the truncation of its 1,000 rows of the sample's documented Σ BilledCost (test/fixtures/focus/README).
    const total = sum(stated.map(([, billed]) => exact(billed)));
    const gap = sum([exact('20.52022672899'), { n: -total.n, scale: total.scale }]);
    const units = gap.n < 0n ? -gap.n : gap.n; // of 10^-scale; each row lost less than 10^-10
    expect(units < BigInt(rows.length) * 10n ** BigInt(gap.scale - 10)).toBe(true);
  });

  it('refuses bad bodies with a 400 naming the field', async () => {
    const response = await t.http
      .post(INVOICES)
      .set(org.auth)
      .send({ filters: { inclusions: { billingPeriods: ['2026-13'] } } });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^Invalid request\. Please see message details\. filters\.inclusions\.billingPeriods/);
    const reader = await t.keyFor(org.organizationId, ['shared-filters:read']);
    expect((await t.http.post(INVOICES).set(reader.auth).send({})).status).toBe(403);
  });
});
