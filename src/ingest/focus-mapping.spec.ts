import { addDecimalStrings } from './decimal-text';
import { parseCsvRecord } from './focus-files';
import {
  COST_COLUMNS,
  COST_COLUMNS_SQL,
  FOCUS_SOURCE_STRUCTURE,
  FOCUS_STAGING_COLUMNS,
  focusSelectSql,
  missingRequiredColumns,
  reportBlockSql,
  reportTotalsSql,
} from './focus-mapping';
import { sqlString } from '../store/statement-text';

/** cost_line_items columns in table order (src/store/schema/migrations/0001, 0004 and 0016; imported_at of 0010 keeps its default). */
const COST_LINE_ITEM_COLUMNS = [
  'organization_id',
  'usage_date',
  'billing_period',
  'billing_currency',
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
  'allocated_method_id',
  'allocated_method_details',
  'allocated_resource_id',
  'allocated_resource_name',
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
  'billing_account_id',
  'invoice_id',
  'invoice_issuer',
  'charge_category',
  'charge_class',
  'pricing_category',
  'commitment_discount_id',
  'commitment_discount_name',
  'commitment_discount_type',
  'commitment_discount_category',
  'commitment_discount_status',
  'commitment_discount_quantity',
  'commitment_discount_unit',
  'capacity_reservation_id',
  'capacity_reservation_status',
  'contract_applied',
  'resource_id',
  'commitment_program_eligibility',
];

describe('FOCUS mapping SQL', () => {
  const sql = focusSelectSql({ from: "file('x.csv', CSVWithNames)", rowNumber: '_row_number' });
  const aliases = [...sql.matchAll(/ AS (\w+)/g)].map((m) => m[1]);

  it('produces every cost_line_items column, in table order, then the report columns, as the outermost SELECT list', () => {
    const outer = sql.slice(0, sql.indexOf('\nFROM ('));
    const outerAliases = [...outer.matchAll(/ AS (\w+)(?:,\n|$)/g)].map((m) => m[1]);
    expect(outerAliases.slice(0, COST_LINE_ITEM_COLUMNS.length)).toEqual(COST_LINE_ITEM_COLUMNS);
    expect(COST_COLUMNS).toEqual(COST_LINE_ITEM_COLUMNS);
    expect(outerAliases.slice(COST_LINE_ITEM_COLUMNS.length).every((alias) => alias.startsWith('r_'))).toBe(true);
    expect(outerAliases).toEqual(expect.arrayContaining(['r_row', 'r_fails0', 'r_value0', 'r_has_BilledCost', 'r_list', 'r_currency']));
  });

  it('reads the file once, every FOCUS column as text, each row with its number', () => {
    expect(FOCUS_SOURCE_STRUCTURE).toBe(FOCUS_STAGING_COLUMNS.map((column) => `${column} Nullable(String)`).join(', '));
    expect(sql).toContain("FROM file('x.csv', CSVWithNames)");
    expect(sql).toContain('_row_number AS v_row');
    expect(sql.match(/FROM file\(/g)).toHaveLength(1);
  });

  it('maps a row that fails a check with placeholder dates instead of failing the statement (the import is then refused)', () => {
    expect(sql).toContain('ifNull(toDate(t_charge_start), toDate(0)) AS usage_date');
    expect(sql).toContain("ifNull(formatDateTime(t_billing_start, '%Y-%m'), '') AS billing_period");
  });

  it('takes organisation and integration only as typed query parameters', () => {
    expect(sql).toContain('{organization_id:UUID} AS organization_id');
    expect(sql).toContain("if({integration_id:String} != '', {integration_id:String}, ");
  });

  it('never aliases an expression with the name of a column it reads (ClickHouse would shadow the column)', () => {
    const read = new Set<string>([...FOCUS_STAGING_COLUMNS, '_row_number']);
    expect(aliases.filter((alias) => read.has(alias))).toEqual([]);
    expect(new Set(aliases).size).toBe(aliases.length);
  });

  it('takes the billing period from BillingPeriodStart and the usage date from ChargePeriodStart, in UTC', () => {
    expect(sql).toContain("formatDateTime(t_billing_start, '%Y-%m'), '') AS billing_period");
    expect(sql).toContain('toDate(t_charge_start), toDate(0)) AS usage_date');
    expect(sql).toContain("parseDateTime64BestEffortOrNull(v_BillingPeriodStart, 3, 'UTC') AS t_billing_start");
  });

  it('accepts the provider column of every FOCUS version (≤1.2 ProviderName, 1.3 ServiceProviderName/HostProviderName)', () => {
    expect(sql).toContain('coalesce(v_ProviderName, v_HostProviderName, v_ServiceProviderName) AS p_provider');
  });

  it('defines all ten measures; savings only inside the usage scope, the residual going to other_savings', () => {
    const measures = COST_LINE_ITEM_COLUMNS.slice(
      COST_LINE_ITEM_COLUMNS.indexOf('amortized_cost'),
      COST_LINE_ITEM_COLUMNS.indexOf('other_savings') + 1,
    );
    expect(COST_COLUMNS_SQL.map(([column]) => column)).toEqual(measures);
    const savings = Object.fromEntries(COST_COLUMNS_SQL);
    for (const column of measures.slice(4)) expect(savings[column]).toMatch(/^if\(p_usage_scope/);
    expect(savings.on_demand_cost).toBe('if(p_usage_scope, m_list, toDecimal128(0, 10))');
    expect(savings.amortized_cost).toBe('m_effective');
    expect(savings.billed_cost).toBe('m_billed');
    // commitment, spot and other are mutually exclusive and each is contracted − effective.
    expect(savings.commitment_savings).toContain('p_committed, m_contracted - m_effective');
    expect(savings.spot_savings).toContain('NOT p_committed AND p_spot, m_contracted - m_effective');
    expect(savings.other_savings).toContain('NOT p_committed AND NOT p_spot, m_contracted - m_effective');
  });
});

describe('file report', () => {
  it('counts per block the rows, per value check the failing rows, the first one and its value, and which required columns have values', () => {
    const sql = reportBlockSql('db.input');
    expect(sql).toContain('toUInt64(countIf(r_fails0 = 1)) AS check0_rows');
    expect(sql).toContain('minIf(r_row, r_fails0 = 1) AS check0_first_row');
    expect(sql).toContain('argMinIf(r_value0, r_row, r_fails0 = 1) AS check0_value');
    expect(sql).toContain('max(r_has_ChargePeriodStart) AS has_ChargePeriodStart');
    expect(sql).toContain('sum(r_list) AS list_cost');
    expect(sql).toMatch(/FROM db\.input$/);
  });

  it("adds a file's blocks up, the first failing row over every block that has one", () => {
    const sql = reportTotalsSql('db.report');
    expect(sql).toContain('toString(sum(check0_rows)) AS failing0');
    expect(sql).toContain('toString(minIf(check0_first_row, check0_rows > 0)) AS first_failing0');
    expect(sql).toContain('argMinIf(check0_value, check0_first_row, check0_rows > 0) AS failing_value0');
    expect(sql).toContain('arrayDistinct(arrayFlatten(groupArray(currencies))) AS file_currencies');
  });

  it('names missing required columns, accepting any version of the provider column', () => {
    expect(missingRequiredColumns(['Date', 'Cost'])).toEqual([
      'BilledCost',
      'EffectiveCost',
      'ListCost',
      'ChargeCategory',
      'ChargePeriodStart',
      'BillingPeriodStart',
      'BillingAccountId',
      'ServiceName',
      'ProviderName or ServiceProviderName or HostProviderName',
      'BillingCurrency',
    ]);
    const v13 = [
      'BilledCost',
      'EffectiveCost',
      'ListCost',
      'ChargeCategory',
      'ChargePeriodStart',
      'BillingPeriodStart',
      'BillingAccountId',
      'ServiceName',
      'BillingCurrency',
    ];
    expect(missingRequiredColumns([...v13, 'ServiceProviderName'])).toEqual([]);
    expect(missingRequiredColumns([...v13, 'ProviderName'])).toEqual([]);
  });

  it('escapes SQL string literals (file paths)', () => {
    expect(sqlString("/tmp/it's\\here")).toBe("/tmp/it\\'s\\\\here");
  });
});

describe('helpers', () => {
  it('parses a CSV header record with quotes, escaped quotes and CRLF', () => {
    expect(parseCsvRecord('"A","B ""x""",C\r\n1,2,3')).toEqual(['A', 'B "x"', 'C']);
    expect(parseCsvRecord('"a,b",c\n')).toEqual(['a,b', 'c']);
  });

  it('adds decimal texts exactly', () => {
    expect(addDecimalStrings('0.1', '0.2')).toBe('0.3');
    expect(addDecimalStrings('20.5202267290', '-20.5202267290')).toBe('0');
    expect(addDecimalStrings('-1.0000000001', '0.5')).toBe('-0.5000000001');
  });
});
