import type { DateGrouping } from './date-bucketing';
import { MAP_DIMENSIONS } from './filter-fields';

/** The monthly aggregate projections (migrations 0006, 0015, 0027), by the maps a statement reads. */
export const MONTHLY_PROJECTIONS = {
  dimensions: 'monthly_dimension_sums',
  fullMaps: 'monthly_tag_sums',
  activatedMaps: 'monthly_activated_tag_sums',
} as const;

const MAPS = Object.values(MAP_DIMENSIONS);

function reads(sql: string, columns: string[]): boolean {
  return columns.some((column) => new RegExp(`\\b${column}\\b`).test(sql));
}

/**
 * Whether the statement reads days, not only their months (a range of days): the monthly projections cannot answer
 * it. The answer's bucket is named usage_date, an alias.
 */
function readsDays(sql: string): boolean {
  return /\busage_date\b/.test(sql.replaceAll('toStartOfMonth(usage_date)', '').replaceAll(' AS usage_date', ''));
}

/**
 * A cost statement bucketed by `grouping`, with the projection it should prefer. ClickHouse takes the aggregate
 * projection reading the fewest granules; where the daily and monthly ones read as many (one granule a part each: a
 * small organisation, or an estate whose resources share their dimensions) it may take the daily one and read ~30×
 * the rows. A question by month over whole months names the monthly projection of the maps it reads. Only then: a
 * preferred projection that cannot answer makes ClickHouse read the line items instead (chDB 26.7).
 */
export function withProjectionPreference(grouping: DateGrouping, sql: string): string {
  if (grouping !== 'monthly' || readsDays(sql)) return sql;
  const projection = reads(
    sql,
    MAPS.map((map) => map.column),
  )
    ? MONTHLY_PROJECTIONS.fullMaps
    : reads(
          sql,
          MAPS.map((map) => map.activatedColumn),
        )
      ? MONTHLY_PROJECTIONS.activatedMaps
      : MONTHLY_PROJECTIONS.dimensions;
  return `${sql}\nSETTINGS preferred_optimize_projection_name = '${projection}'`;
}
