import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { METRIC_TOTALS_KEYS } from '../comparison/comparison-result';
import { MetricTotalsDto } from '../comparison/dto/compare-response.dto';
import { CostDataPointDto, CostDataSummaryDto } from '../costs/dto/cost-data-response.dto';
import { generateDemoRows } from '../demo/demo-data.generator';
import { COST_COLUMNS } from '../ingest/focus-mapping';
import type { CostLineItemRow } from './cost-line-item';
import { COST_MEASURES, SAVINGS_SOURCES, SUMMED_METRICS } from './cost-metrics';
import { LIST_FIELDS, MAP_DIMENSIONS } from './filter-fields';
import { CONVERTED_SUM_KEYS } from './converted-sums.query';
import { AGGREGATE_PROJECTIONS } from './projections';

/**
 * One definition per concept: the lists written out in several places are checked against the one they must
 * follow, and a test fails naming the entry that drifted. The cost table's columns (from the migrations) against
 * the importer's columns and the row every loader writes; the field table's columns against the aggregate
 * projections; the metrics against the response DTOs that declare them for Swagger.
 */
const MIGRATIONS = resolve(__dirname, '../../clickhouse/migrations');

/** Every key of CostLineItemRow, once (the compiler refuses a missing or extra key here). */
const ROW_KEYS: Record<keyof CostLineItemRow, true> = {
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
  resource_tags: true,
  cost_categories: true,
  billing_account_id: true,
  invoice_id: true,
  invoice_issuer: true,
  charge_category: true,
  charge_class: true,
  amortized_cost: true,
  billed_cost: true,
  cash_cost: true,
  on_demand_cost: true,
  enterprise_discount_savings: true,
  product_discount_savings: true,
  partner_discount_savings: true,
  commitment_savings: true,
  spot_savings: true,
  other_savings: true,
};

/** The cost table's columns as the migrations leave them: the last CREATE's list, then every ADD COLUMN. */
function costTableColumns(): string[] {
  let columns: string[] = [];
  for (const file of readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(join(MIGRATIONS, file), 'utf8').replace(/^--.*$/gm, '');
    const created = /CREATE TABLE (?:IF NOT EXISTS )?\{\{database\}\}\.cost_line_items(?:_\w+)?\s*\(([\s\S]*?)\)\s*ENGINE/.exec(sql);
    if (created) columns = [...created[1].matchAll(/^\s*(\w+)\s+\S/gm)].map((match) => match[1]);
    for (const added of sql.matchAll(/cost_line_items ADD COLUMN IF NOT EXISTS (\w+)/g)) columns.push(added[1]);
  }
  return columns;
}

/** Each aggregate projection's GROUP BY keys, as its latest (re)definition states them. */
function projectionKeys(): Map<string, string[]> {
  const projections = new Map<string, string[]>();
  for (const file of readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(join(MIGRATIONS, file), 'utf8').replace(/^--.*$/gm, '');
    for (const match of sql.matchAll(/ADD PROJECTION IF NOT EXISTS (\w+)\s*\(([\s\S]*?)\n\);/g)) {
      const groupBy = /GROUP BY([\s\S]*)$/.exec(match[2])![1];
      projections.set(
        match[1],
        groupBy.split(',').map((key) => key.trim()),
      );
    }
  }
  return projections;
}

/** The converted sums' columns and its projection's GROUP BY keys (migration 0021). */
function convertedSumsTable(): { columns: string[]; projectionKeys: string[] } {
  const sql = readFileSync(join(MIGRATIONS, '0021_create_converted_cost_sums.sql'), 'utf8').replace(/^--.*$/gm, '');
  const body = /CREATE TABLE IF NOT EXISTS \{\{database\}\}\.converted_cost_sums\s*\(([\s\S]*?)\n\)\nENGINE/.exec(sql)![1];
  const [columns, projection] = body.split(/\n\s*PROJECTION /);
  const groupBy = /GROUP BY([\s\S]*?)\)\s*$/.exec(projection)![1];
  return {
    columns: [...columns.matchAll(/^\s*(\w+)\s+\S/gm)].map((match) => match[1]),
    projectionKeys: groupBy.split(',').map((key) => key.trim()),
  };
}

const sorted = (values: Iterable<string>) => [...values].sort();
const swaggerProperties = (dto: object) =>
  (Reflect.getMetadata('swagger/apiModelPropertiesArray', dto) as string[]).map((key) => key.slice(1));

describe('one definition per concept', () => {
  it("the importer writes every column of the cost table but imported_at and the activated maps (the migrations' columns)", () => {
    const computed = ['imported_at', ...Object.values(MAP_DIMENSIONS).map((map) => map.activatedColumn)];
    expect(sorted(COST_COLUMNS)).toEqual(sorted(costTableColumns().filter((column) => !computed.includes(column))));
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
    // charge_class is derived from cost_type when omitted (migration 0016); the demo has no corrections.
    expect(sorted(COST_COLUMNS.filter((column) => !keys.has(column)))).toEqual(['charge_class']);
  });

  it("every aggregate projection groups by every list field's column (or its month), so questions on it stay pre-aggregated", () => {
    const projections = projectionKeys();
    // The migrations define exactly the projections the code names (projections.ts).
    const named = Object.values(AGGREGATE_PROJECTIONS).flatMap((grain) => Object.values(grain));
    expect({ list: 'AGGREGATE_PROJECTIONS', names: sorted(named) }).toEqual({
      list: 'AGGREGATE_PROJECTIONS',
      names: sorted(projections.keys()),
    });
    for (const [name, keys] of projections) {
      const missing = LIST_FIELDS.map((field) => field.column).filter((column) => !keys.includes(column));
      expect({ projection: name, missing }).toEqual({ projection: name, missing: [] });
    }
  });

  it("the converted sums keep every list field's column, every money column, and their monthly projection every key", () => {
    const { columns, projectionKeys } = convertedSumsTable();
    expect(sorted(CONVERTED_SUM_KEYS)).toEqual(sorted(['usage_date', ...LIST_FIELDS.map((field) => field.column)]));
    expect(sorted(columns)).toEqual(
      sorted(['organization_id', 'build_id', 'built_on', ...CONVERTED_SUM_KEYS, 'converted_bit', ...COST_MEASURES, ...SAVINGS_SOURCES]),
    );
    const monthly = CONVERTED_SUM_KEYS.map((key) => (key === 'usage_date' ? 'toStartOfMonth(usage_date)' : key));
    expect(sorted(projectionKeys)).toEqual(sorted(['organization_id', 'build_id', ...monthly]));
  });

  it('the response DTOs declare every summed metric, under its item and its summary name', () => {
    expect(
      sorted(
        swaggerProperties(CostDataPointDto.prototype).filter(
          (name) => !['usage_date', 'dimension_value', 'dimension_values'].includes(name),
        ),
      ),
    ).toEqual(sorted(SUMMED_METRICS));
    const summaryNames = SUMMED_METRICS.map((metric) => (metric === 'total_savings' ? metric : `total_${metric}`));
    expect(
      sorted(
        swaggerProperties(CostDataSummaryDto.prototype).filter((name) => !['effective_savings_rate', 'exchange_rates'].includes(name)),
      ),
    ).toEqual(sorted(summaryNames));
    expect(SUMMED_METRICS).toEqual([...COST_MEASURES, 'total_savings', ...SAVINGS_SOURCES]);
    expect(swaggerProperties(MetricTotalsDto.prototype)).toEqual([...METRIC_TOTALS_KEYS]);
  });
});
