import 'reflect-metadata';
import { DAILY_METRICS } from '../../clients/backstage-cost-insights/src/client';
import { METRIC_TOTALS_KEYS } from '../comparison/comparison-result';
import { MetricTotalsDto } from '../comparison/dto/compare-response.dto';
import type { AppConfig } from '../config/app-config';
import { CostDataPointDto, CostDataSummaryDto } from '../costs/dto/cost-data-response.dto';
import { generateDemoRows } from '../demo/demo-data.generator';
import { COST_COLUMNS, COST_COLUMNS_SQL } from '../ingest/focus-mapping';
import { getCostDataTool } from '../mcp/tools/get-cost-data.tool';
import type { ToolServices } from '../mcp/tools/tool-definition';
import type { CostLineItemRow } from './cost-line-item';
import { costDataCsvColumns } from './cost-data.query';
import { COMPARE_METRICS, metricPartSumsSql, metricSumsOfPartsSql } from './cost-metrics';
import { MEASURE_COLUMNS, MeasureColumn, METRIC_CSV_HEADERS, METRIC_NAMES, METRIC_SUMMARY_NAMES, METRICS } from './metrics';
import { LIST_FIELDS, MAP_DIMENSIONS } from './filter-fields';
import { CONVERTED_SUM_KEYS } from './converted-sums.query';
import { CATEGORY_SUM_COLUMNS, CATEGORY_SUM_KEYS, CATEGORY_SUM_MAP } from './category-sums.query';
import { COMMITMENT_GROUPED_COLUMNS } from './commitments.query';
import { AGGREGATE_PROJECTIONS, CATEGORY_SUM_PROJECTIONS, COMMITMENT_PROJECTION_LIST_COLUMNS, COMMITMENT_PROJECTIONS } from './projections';
import { baselineTable } from '../store/schema/schema-baseline';

/**
 * One definition per concept: the lists written out in several places are checked against the one they must
 * follow, and a test fails naming the entry that drifted. The cost table's columns (from the migrations) against
 * the importer's columns and the row every loader writes; the field table's columns against the aggregate
 * projections; the metrics table (metrics.ts) against the spec, and every list of the metrics against it.
 */

/** Every key of CostLineItemRow, once (the compiler refuses a missing or extra key here); the measures are the metrics table's. */
const ROW_KEYS: Record<keyof CostLineItemRow, true> = {
  ...(Object.fromEntries(MEASURE_COLUMNS.map((column) => [column, true])) as Record<MeasureColumn, true>),
  organization_id: true,
  usage_date: true,
  billing_period: true,
  billing_currency: true,
  cost_layer: true,
  cloud: true,
  service: true,
  resource_family: true,
  region: true,
  instance_type: true,
  usage_type: true,
  cost_type: true,
  account_id: true,
  account_name: true,
  integration_id: true,
  allocated_method_id: true,
  allocated_method_details: true,
  allocated_resource_id: true,
  allocated_resource_name: true,
  resource_tags: true,
  cost_categories: true,
  billing_account_id: true,
  invoice_id: true,
  invoice_issuer: true,
  charge_category: true,
  charge_class: true,
  pricing_category: true,
  commitment_discount_id: true,
  commitment_discount_name: true,
  commitment_discount_type: true,
  commitment_discount_category: true,
  commitment_discount_status: true,
  commitment_discount_quantity: true,
  commitment_discount_unit: true,
  capacity_reservation_id: true,
  capacity_reservation_status: true,
  contract_applied: true,
  resource_id: true,
  commitment_program_eligibility: true,
};

const sorted = (values: Iterable<string>) => [...values].sort();
const swaggerProperties = (dto: object) =>
  (Reflect.getMetadata('swagger/apiModelPropertiesArray', dto) as string[]).map((key) => key.slice(1));

/**
 * The metrics as the spec states them (docs/contract/cost-insights-api.md: CostDataPoint, CostDataSummary, /compare's
 * `metric`), written out here on purpose, independently of metrics.ts:
 * [name, stored column (null: the sum of the savings sources), savings source, summary name, CSV header, comparable].
 */
const SPEC_METRICS = [
  ['amortized_cost', 'amortized_cost', false, 'total_amortized_cost', 'amortized_cost', true],
  ['billed_cost', 'billed_cost', false, 'total_billed_cost', 'billed_cost', true],
  ['cash_cost', 'cash_cost', false, 'total_cash_cost', 'cash_cost', true],
  ['on_demand_cost', 'on_demand_cost', false, 'total_on_demand_cost', 'on_demand_cost', true],
  ['total_savings', null, false, 'total_savings', 'total_savings', true],
  [
    'enterprise_discount_savings',
    'enterprise_discount_savings',
    true,
    'total_enterprise_discount_savings',
    'enterprise_discount_savings',
    false,
  ],
  ['product_discount_savings', 'product_discount_savings', true, 'total_product_discount_savings', 'product_discount_savings', false],
  ['partner_discount_savings', 'partner_discount_savings', true, 'total_partner_discount_savings', 'partner_discount_savings', false],
  ['commitment_savings', 'commitment_savings', true, 'total_commitment_savings', 'commitment_savings', true],
  ['spot_savings', 'spot_savings', true, 'total_spot_savings', 'spot_savings', true],
  ['other_savings', 'other_savings', true, 'total_other_savings', 'other_savings', false],
];

/** The aliases of a SELECT list's `… AS <alias>` items. */
const aliases = (sql: string) => [...sql.matchAll(/ AS (\w+)/g)].map((match) => match[1]);

/** The names a text lists after `label` up to `end`, comma-separated. */
function listedIn(text: string, label: string, end: string): string[] {
  const start = text.indexOf(label);
  return start < 0 ? [] : text.slice(start + label.length, text.indexOf(end, start + label.length)).split(', ');
}

/** Every list of the metrics outside metrics.ts, by where it lives, and what the metrics table says it must be. */
function metricLists(): { list: string; actual: readonly unknown[]; expected: readonly unknown[] }[] {
  const mcp = getCostDataTool({} as ToolServices).description({ maxDateRangeDays: 366, defaultWindowDays: 30 } as AppConfig);
  const totalSavings = metricSumsOfPartsSql(undefined, '\n')
    .split('\n')
    .find((item) => item.endsWith(' AS sum_total_savings'));
  return [
    {
      list: 'CostDataPoint properties (Swagger)',
      actual: swaggerProperties(CostDataPointDto.prototype).filter(
        (name) => !['usage_date', 'dimension_value', 'dimension_values', 'split_in', 'split_out'].includes(name),
      ),
      expected: METRIC_NAMES,
    },
    {
      list: 'CostDataSummary properties (Swagger)',
      actual: swaggerProperties(CostDataSummaryDto.prototype).filter(
        (name) => !['effective_savings_rate', 'exchange_rates'].includes(name),
      ),
      expected: METRIC_SUMMARY_NAMES,
    },
    {
      list: "/data's CSV header (costDataCsvColumns)",
      actual: costDataCsvColumns({ dimensions: [] }).slice(1),
      expected: METRIC_CSV_HEADERS,
    },
    { list: 'partial sums (metricPartSumsSql)', actual: aliases(metricPartSumsSql()), expected: MEASURE_COLUMNS.map((c) => `part_${c}`) },
    {
      list: 'sums of parts (metricSumsOfPartsSql)',
      actual: aliases(metricSumsOfPartsSql()),
      expected: METRIC_NAMES.map((n) => `sum_${n}`),
    },
    {
      list: 'the savings total_savings adds up (metricSumsOfPartsSql)',
      actual: (totalSavings ?? '').replace(/^\(|\) AS sum_total_savings$/g, '').split(' + '),
      expected: METRICS.filter((m) => m.savingsSource).map((m) => `sum(part_${m.column})`),
    },
    {
      list: "the importer's measures (focus-mapping.ts COST_COLUMNS_SQL)",
      actual: COST_COLUMNS_SQL.map(([c]) => c),
      expected: MEASURE_COLUMNS,
    },
    {
      list: "the cost table's measure columns (migrations, in table order)",
      actual: baselineTable('cost_line_items')!.columns.filter((column) => (MEASURE_COLUMNS as readonly string[]).includes(column)),
      expected: MEASURE_COLUMNS,
    },
    {
      list: "MCP get_cost_data's summary",
      actual: listedIn(mcp, 'totals over the whole window: ', ';'),
      expected: [...METRIC_SUMMARY_NAMES, 'effective_savings_rate'],
    },
    { list: "MCP get_cost_data's items", actual: listedIn(mcp, 'first day; metrics ', ')'), expected: METRIC_NAMES },
    { list: "the Backstage client's DAILY_METRICS", actual: DAILY_METRICS, expected: METRIC_NAMES },
  ];
}

describe('one definition per concept', () => {
  it("the importer writes every column of the cost table but imported_at and the activated maps (the migrations' columns)", () => {
    const computed = ['imported_at', ...Object.values(MAP_DIMENSIONS).map((map) => map.activatedColumn)];
    expect(sorted(COST_COLUMNS)).toEqual(sorted(baselineTable('cost_line_items')!.columns.filter((column) => !computed.includes(column))));
  });

  it('the row every loader writes (CostLineItemRow) has exactly the columns the importer writes', () => {
    expect(sorted(Object.keys(ROW_KEYS))).toEqual(sorted(COST_COLUMNS));
  });

  it("the demo generator's rows write only the table's columns, every one without a default", () => {
    const [day] = generateDemoRows({
      organizationId: '00000000-0000-4000-8000-000000000001',
      from: '2026-10-01',
      to: '2026-10-01',
      seed: 1,
    });
    const keys = new Set(day.flatMap((row) => Object.keys(row)));
    expect(sorted([...keys].filter((key) => !(COST_COLUMNS as readonly string[]).includes(key)))).toEqual([]);
    // charge_class is derived from cost_type when omitted (migration 0016); the demo has no corrections, its clouds
    // split no shared charge onto other rows, and its commitments carry no quantities or capacity reservations
    // (migration 0031) nor resource ids and program eligibility (migration 0036); its AWS usage draws its one contract down (contract_applied).
    const allocation = ['allocated_method_id', 'allocated_method_details', 'allocated_resource_id', 'allocated_resource_name'];
    const commitments = [
      'commitment_discount_quantity',
      'commitment_discount_unit',
      'capacity_reservation_id',
      'capacity_reservation_status',
      'resource_id',
      'commitment_program_eligibility',
    ];
    expect(sorted(COST_COLUMNS.filter((column) => !keys.has(column)))).toEqual(sorted(['charge_class', ...allocation, ...commitments]));
  });

  it("every aggregate projection groups by every list field's column (or its month), so questions on it stay pre-aggregated", () => {
    const { projections } = baselineTable('cost_line_items')!;
    // The migrations define exactly the projections the code names (projections.ts).
    const named = [
      ...Object.values(AGGREGATE_PROJECTIONS).flatMap((grain) => Object.values(grain)),
      ...Object.values(COMMITMENT_PROJECTIONS),
    ];
    expect({ list: 'AGGREGATE_PROJECTIONS, COMMITMENT_PROJECTIONS', names: sorted(named) }).toEqual({
      list: 'AGGREGATE_PROJECTIONS, COMMITMENT_PROJECTIONS',
      names: sorted(projections.keys()),
    });
    for (const [name, keys] of projections) {
      const missing = LIST_FIELDS.map((field) => field.column).filter((column) => !keys.includes(column));
      // The activated-key projections keep their 0027 keys (migration 0031 says why); the commitments' keep a few
      // list fields only (migration 0037 says why), and every column the commitments statement groups by.
      const commitments = (Object.values(COMMITMENT_PROJECTIONS) as string[]).includes(name);
      const unbuilt = name.includes('_activated_') ? ['allocated_method_id'] : [];
      const expected = commitments
        ? LIST_FIELDS.map((field) => field.column).filter((column) => !COMMITMENT_PROJECTION_LIST_COLUMNS.includes(column))
        : unbuilt;
      expect({ projection: name, missing: sorted(missing) }).toEqual({ projection: name, missing: sorted(expected) });
      if (commitments)
        expect({ projection: name, missing: COMMITMENT_GROUPED_COLUMNS.filter((column) => !keys.includes(column)) }).toEqual({
          projection: name,
          missing: [],
        });
    }
  });

  it("the converted sums keep every list field's column, every money column, and their monthly projection every key", () => {
    const { columns, projections } = baselineTable('converted_cost_sums')!;
    const projectionKeys = projections.get('monthly_converted_sums') ?? [];
    expect(sorted(CONVERTED_SUM_KEYS)).toEqual(sorted(['usage_date', ...LIST_FIELDS.map((field) => field.column)]));
    expect(sorted(columns)).toEqual(
      sorted(['organization_id', 'build_id', 'built_on', ...CONVERTED_SUM_KEYS, 'converted_bit', ...MEASURE_COLUMNS]),
    );
    const monthly = CONVERTED_SUM_KEYS.map((key) => (key === 'usage_date' ? 'toStartOfMonth(usage_date)' : key));
    expect(sorted(projectionKeys)).toEqual(sorted(['organization_id', 'build_id', ...monthly]));
  });

  it("the category sums keep every list field's column, the categories and every money column; their projections the keys they name", () => {
    const { columns, projections } = baselineTable('category_value_sums')!;
    expect(sorted(columns)).toEqual(
      sorted(['organization_id', 'build_id', 'built_on', ...CATEGORY_SUM_KEYS, CATEGORY_SUM_MAP, ...MEASURE_COLUMNS]),
    );
    expect(sorted(CATEGORY_SUM_COLUMNS)).toEqual(sorted(columns.filter((column) => column !== 'built_on')));
    const build = ['organization_id', 'build_id'];
    const month = 'toStartOfMonth(usage_date)';
    const monthly = CATEGORY_SUM_KEYS.map((key) => (key === 'usage_date' ? month : key));
    expect(Object.fromEntries([...projections].map(([name, keys]) => [name, sorted(keys)]))).toEqual({
      [CATEGORY_SUM_PROJECTIONS.monthlyWithColumns]: sorted([...build, ...monthly, CATEGORY_SUM_MAP]),
      [CATEGORY_SUM_PROJECTIONS.daily]: sorted([...build, 'usage_date', 'billing_period', 'billing_currency', CATEGORY_SUM_MAP]),
      [CATEGORY_SUM_PROJECTIONS.monthly]: sorted([...build, month, 'billing_period', 'billing_currency', CATEGORY_SUM_MAP]),
    });
  });

  it("the metrics table is the spec's (SPEC_METRICS, written out independently of metrics.ts)", () => {
    const table = METRICS.map((m) => [m.name, m.column, m.savingsSource, m.summaryName, m.csvHeader, m.comparable]);
    expect(table).toEqual(SPEC_METRICS);
    expect(COMPARE_METRICS).toEqual([
      'amortized_cost',
      'billed_cost',
      'cash_cost',
      'on_demand_cost',
      'total_savings',
      'commitment_savings',
      'spot_savings',
      'effective_savings_rate',
    ]);
    // Swagger's examples add up as the answers do: total_savings is the sum of the six sources (in cents).
    const cents = (value: number) => Math.round(value * 100);
    const totalSavings = METRICS.find((m) => m.name === 'total_savings')!;
    for (const kind of ['item', 'summary'] as const) {
      const sources = METRICS.filter((m) => m.savingsSource).reduce((sum, m) => sum + cents(m.examples[kind]), 0);
      expect({ examples: kind, sources }).toEqual({ examples: kind, sources: cents(totalSavings.examples[kind]) });
    }
  });

  it.each(metricLists())("$list: the metrics table's, in its order", ({ list, actual, expected }) => {
    expect({ list, metrics: [...actual] }).toEqual({ list, metrics: [...expected] });
  });

  it("comparison's metric_totals are declared for Swagger as METRIC_TOTALS_KEYS lists them", () => {
    expect(swaggerProperties(MetricTotalsDto.prototype)).toEqual([...METRIC_TOTALS_KEYS]);
  });
});
