import { MAP_DIMENSIONS } from './filter-fields';
import { AGGREGATE_PROJECTIONS } from './projections';

const MONTHLY_PROJECTIONS = AGGREGATE_PROJECTIONS.monthly;

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
 * A cost statement with the projection it should prefer. ClickHouse takes the aggregate projection reading the fewest
 * granules; where the daily and monthly ones read as many (one granule a part each: a small organisation, or an
 * estate whose resources share their dimensions) it may take the daily one and read ~30× the rows. A statement that
 * reads months only (a question by month over whole months) names the monthly projection of the maps it reads. Only
 * then: a preferred projection that cannot answer makes ClickHouse read the line items instead (chDB 26.7).
 */
export function withProjectionPreference(sql: string): string {
  if (readsDays(sql)) return sql;
  return `${sql}\nSETTINGS preferred_optimize_projection_name = '${monthlyProjectionOf(sql)}'`;
}

/** The monthly projection holding the maps the statement reads: full maps if any, else activated ones, else none. */
function monthlyProjectionOf(sql: string): string {
  if (
    reads(
      sql,
      MAPS.map((map) => map.column),
    )
  )
    return MONTHLY_PROJECTIONS.fullMaps;
  if (
    reads(
      sql,
      MAPS.map((map) => map.activatedColumn),
    )
  )
    return MONTHLY_PROJECTIONS.activatedMaps;
  return MONTHLY_PROJECTIONS.dimensions;
}
