import { Injectable } from '@nestjs/common';
import { clickhouseTimestamp, isoFromClickhouse } from '../../common/dates/clickhouse-time';
import { bucketStartSql, DateGrouping } from '../../cost-query/date-bucketing';
import type { DateRange } from '../../cost-query/filters.types';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

export interface BusinessMetric {
  name: string;
  unit: string;
  unitScale: number;
  /** '' for one series, else the dimension its values are per (as /data names it). */
  dimension: string;
}

export interface MetricValue {
  date: string;
  value: string;
  dimensionValue: string;
}

/** Which of a metric's dimension values a question selects: those its filters and data scope name (none: all of them). */
export interface UnitSelection {
  include?: string[];
  exclude: string[];
}

/** A metric as listed: its definition, who saved it last and when, and what its values cover. */
export interface StoredMetric extends BusinessMetric {
  updatedAt: string;
  updatedBy: string;
}

/** Units per bucket (and dimension value), exact decimal text. */
export interface UnitsRow {
  bucket: string;
  value_key: string;
  units: string;
}

interface MetricRow {
  name: string;
  last_unit: string;
  last_unit_scale: number | string;
  last_dimension: string;
  last_deleted: number | string;
  updated: string;
  last_updated_by: string;
}

/** The SQL of business metrics and their values. The organisation always comes from the key or session. */
@Injectable()
export class BusinessMetricsRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  /** The organisation's metrics in force (latest definition not a deletion), by name. */
  async metrics(organizationId: string, name?: string): Promise<StoredMetric[]> {
    const rows = await this.clickhouse.query<MetricRow>(
      `SELECT name, argMax(unit, updated_at) AS last_unit, argMax(unit_scale, updated_at) AS last_unit_scale,
              argMax(dimension, updated_at) AS last_dimension, argMax(deleted, updated_at) AS last_deleted,
              max(updated_at) AS updated, argMax(updated_by, updated_at) AS last_updated_by
       FROM ${this.clickhouse.table('business_metrics')}
       WHERE organization_id = {organization_id:UUID} ${name === undefined ? '' : 'AND name = {name:String}'}
       GROUP BY name
       ORDER BY name`,
      { organization_id: organizationId, ...(name === undefined ? {} : { name }) },
      { organizationId },
    );
    return rows
      .filter((row) => Number(row.last_deleted) === 0)
      .map((row) => ({
        name: row.name,
        unit: row.last_unit,
        unitScale: Number(row.last_unit_scale),
        dimension: row.last_dimension,
        updatedAt: isoFromClickhouse(row.updated),
        updatedBy: row.last_updated_by,
      }));
  }

  async saveMetric(organizationId: string, metric: BusinessMetric, updatedBy: string, deleted = false): Promise<void> {
    await this.clickhouse.insert('business_metrics', [
      {
        organization_id: organizationId,
        name: metric.name,
        updated_at: clickhouseTimestamp(new Date()),
        unit: metric.unit,
        unit_scale: metric.unitScale,
        dimension: metric.dimension,
        deleted: deleted ? 1 : 0,
        updated_by: updatedBy,
      },
    ]);
  }

  /**
   * One load: every row carries the same loaded_at, so the days it names read these rows only from now on — once the
   * load is complete (its `started` mark written before the rows, `complete` after: a load cut short is never read).
   */
  async loadValues(organizationId: string, name: string, values: readonly MetricValue[]): Promise<void> {
    const loadedAt = clickhouseTimestamp(new Date());
    const mark = (state: 'started' | 'complete') =>
      this.clickhouse.insert('business_metric_loads', [{ organization_id: organizationId, name, loaded_at: loadedAt, state }]);
    await mark('started');
    await this.clickhouse.insert(
      'business_metric_values',
      values.map((value) => ({
        organization_id: organizationId,
        name,
        date: value.date,
        dimension_value: value.dimensionValue,
        value: value.value,
        loaded_at: loadedAt,
      })),
    );
    await mark('complete');
  }

  /** How many distinct dimension values the metric would hold with `adding` (the cap's check). */
  async dimensionValueCount(organizationId: string, name: string, adding: readonly string[]): Promise<number> {
    const [row] = await this.clickhouse.query<{ value_count: string }>(
      `SELECT toString(length(arrayDistinct(arrayConcat(groupUniqArray(dimension_value), {adding:Array(String)})))) AS value_count
       FROM ${this.clickhouse.table('business_metric_values')}
       WHERE organization_id = {organization_id:UUID} AND name = {name:String}`,
      { organization_id: organizationId, name, adding: [...new Set(adding)] },
      { organizationId },
    );
    return Number(row?.value_count ?? 0);
  }

  /** The metric's units per bucket of `window` (per dimension value when `perValue`), each day as its latest load has it. */
  async units(
    organizationId: string,
    name: string,
    window: DateRange,
    grouping: DateGrouping,
    selection: UnitSelection,
    perValue: boolean,
  ): Promise<UnitsRow[]> {
    const table = this.clickhouse.table('business_metric_values');
    const days = 'organization_id = {organization_id:UUID} AND name = {name:String} AND date BETWEEN {start:Date} AND {end:Date}';
    const selected = [
      ...(selection.include ? ['dimension_value IN {include:Array(String)}'] : []),
      ...(selection.exclude.length > 0 ? ['dimension_value NOT IN {exclude:Array(String)}'] : []),
    ];
    return this.clickhouse.query<UnitsRow>(
      `SELECT toString(${bucketStartSql(grouping, 'date')}) AS bucket, ${perValue ? 'dimension_value' : "''"} AS value_key,
              toString(sum(value)) AS units
       FROM ${table}
       WHERE ${days} ${selected.map((condition) => `AND ${condition}`).join(' ')}
         AND (date, loaded_at) IN (
           SELECT date, max(loaded_at) FROM ${table}
           WHERE ${days}
             AND loaded_at NOT IN (
               SELECT loaded_at FROM ${this.clickhouse.table('business_metric_loads')}
               WHERE organization_id = {organization_id:UUID} AND name = {name:String}
               GROUP BY loaded_at HAVING countIf(state = 'complete') = 0)
           GROUP BY date)
       GROUP BY bucket, value_key
       ORDER BY bucket, value_key`,
      {
        organization_id: organizationId,
        name,
        start: window.start,
        end: window.end,
        ...(selection.include ? { include: selection.include } : {}),
        ...(selection.exclude.length > 0 ? { exclude: selection.exclude } : {}),
      },
      { organizationId },
    );
  }
}
