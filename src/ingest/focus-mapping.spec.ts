import { addDecimalStrings } from './decimal-text';
import { parseCsvRecord } from './focus-files';
import {
  ABSENT_MARKER,
  COST_COLUMNS_SQL,
  FOCUS_STAGING_COLUMNS,
  focusMappingInsertSql,
  missingRequiredColumns,
  rawFileReportSql,
  rawStagingTableSql,
  sqlString,
} from './focus-mapping';

/** cost_line_items columns in table order (clickhouse/migrations/0001 and 0004). */
const COST_LINE_ITEM_COLUMNS = [
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
];

describe('FOCUS mapping SQL', () => {
  const sql = focusMappingInsertSql('db.focus_import_x', 'db.focus_import_x_raw0');
  const aliases = [...sql.matchAll(/ AS (\w+)/g)].map((m) => m[1]);

  it('produces every cost_line_items column, in table order, as the outermost SELECT list', () => {
    const outer = sql.slice(0, sql.indexOf('\nFROM ('));
    const outerAliases = [...outer.matchAll(/ AS (\w+)(?:,\n|$)/g)].map((m) => m[1]);
    expect(outerAliases).toEqual(COST_LINE_ITEM_COLUMNS);
    expect(
      sql.startsWith(
        `INSERT INTO db.focus_import_x (${COST_LINE_ITEM_COLUMNS.join(', ')}) SETTINGS max_partitions_per_insert_block = 0, max_execution_time = 0\nSELECT`,
      ),
    ).toBe(true);
    expect(sql).toContain('FROM db.focus_import_x_raw0');
  });

  it('takes organisation and integration only as typed query parameters', () => {
    expect(sql).toContain('{organization_id:UUID} AS organization_id');
    expect(sql).toContain("if({integration_id:String} != '', {integration_id:String}, ");
  });

  it('never aliases an expression with the name of a column it reads (ClickHouse would shadow the column)', () => {
    const read = new Set<string>([...FOCUS_STAGING_COLUMNS, '_row']);
    expect(aliases.filter((alias) => read.has(alias))).toEqual([]);
    expect(new Set(aliases).size).toBe(aliases.length);
  });

  it('takes the billing period from BillingPeriodStart and the usage date from ChargePeriodStart, in UTC', () => {
    expect(sql).toContain("formatDateTime(t_billing_start, '%Y-%m') AS billing_period");
    expect(sql).toContain('toDate(t_charge_start) AS usage_date');
    expect(sql).toContain("parseDateTime64BestEffortOrNull(v_BillingPeriodStart, 3, 'UTC') AS t_billing_start");
  });

  it('accepts the provider column of every FOCUS version (≤1.2 ProviderName, 1.3 ServiceProviderName/HostProviderName)', () => {
    expect(sql).toContain('coalesce(v_ProviderName, v_HostProviderName, v_ServiceProviderName) AS p_provider');
  });

  it('defines all ten measures; savings only inside the usage scope, the residual going to other_savings', () => {
    expect(COST_COLUMNS_SQL.map(([column]) => column)).toEqual(COST_LINE_ITEM_COLUMNS.slice(16));
    const savings = Object.fromEntries(COST_COLUMNS_SQL);
    for (const column of COST_LINE_ITEM_COLUMNS.slice(20)) expect(savings[column]).toMatch(/^if\(p_usage_scope/);
    expect(savings.on_demand_cost).toBe('if(p_usage_scope, m_list, toDecimal128(0, 10))');
    expect(savings.amortized_cost).toBe('m_effective');
    expect(savings.billed_cost).toBe('m_billed');
    // commitment, spot and other are mutually exclusive and each is contracted − effective.
    expect(savings.commitment_savings).toContain('p_committed, m_contracted - m_effective');
    expect(savings.spot_savings).toContain('NOT p_committed AND p_spot, m_contracted - m_effective');
    expect(savings.other_savings).toContain('NOT p_committed AND NOT p_spot, m_contracted - m_effective');
  });
});

describe('raw staging', () => {
  it('gives every staging column the absent marker as DEFAULT, and numbers rows as they are parsed', () => {
    const sql = rawStagingTableSql('db.raw');
    for (const column of FOCUS_STAGING_COLUMNS) expect(sql).toContain(`    ${column} Nullable(String) DEFAULT '\\0absent',`);
    expect(sql).toContain('_row UInt64 DEFAULT rowNumberInAllBlocks()');
    expect(ABSENT_MARKER).toBe('\u0000absent');
  });

  it('reports absence per column and, per value check, the failing rows, first row and value', () => {
    const sql = rawFileReportSql('db.raw');
    expect(sql).toContain("countIf(BilledCost = '\\0absent') = count() AS absent_BilledCost");
    expect(sql).toMatch(/toUInt64\(countIf\(parseDateTime64BestEffortOrNull\(v_ChargePeriodStart, 3, 'UTC'\) IS NULL\)\) AS check0_rows/);
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
