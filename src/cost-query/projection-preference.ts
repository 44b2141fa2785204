import { CATEGORY_BUILD_PARAMETER } from './category-sums.query';
import { columnsRead } from './columns-read';
import { LIST_FIELDS, MAP_DIMENSIONS } from './filter-fields';
import { AGGREGATE_PROJECTIONS, CATEGORY_SUM_PROJECTIONS, COMMITMENT_PROJECTIONS } from './projections';

const MAPS = Object.values(MAP_DIMENSIONS);

function reads(sql: string, columns: string[]): boolean {
  return columnsRead(sql, columns).length > 0;
}

/**
 * Whether the statement reads days, not only their months (a range of days): the monthly projections cannot answer
 * it. The answer's bucket is named usage_date, an alias.
 */
function readsDays(sql: string): boolean {
  return /\busage_date\b/.test(sql.replaceAll('toStartOfMonth(usage_date)', '').replaceAll(' AS usage_date', ''));
}

/**
 * A cost statement with the projection it should prefer: of the grain it reads (months only, or days) and of the maps
 * it reads. Every projection keeps every list field (one-definition.spec.ts), so that one can answer whatever else the
 * statement reads, and it is the smallest that can. Named, ClickHouse weighs it alone: left to choose, it analyses
 * every candidate's parts (the planning of a statement of several reads, /filters' five, doubled), and where the daily
 * and monthly projections read as many granules (one a part: a small organisation, or an estate whose resources share
 * their dimensions) it may take the daily one and read ~30× the rows. A statement no projection can answer (a column
 * none keeps) reads the line items either way.
 */
export function withProjectionPreference(sql: string): string {
  if (sql.includes(`{${CATEGORY_BUILD_PARAMETER}:`)) return withCategorySumsProjection(sql);
  return withNamedProjection(sql, preferredProjectionOf(sql));
}

/** The list columns the narrow build projections do not keep (they keep the dates, currencies and categories). */
const CATEGORY_SUM_DROPPED_COLUMNS = LIST_FIELDS.map((field) => field.column).filter(
  (column) => column !== 'billing_period' && column !== 'billing_currency',
);

/**
 * A statement reading a build of category sums, with the build's projection of its grain that keeps what it reads:
 * dates, currencies and categories only, or with every column by month; by day with every column, the build's rows.
 */
function withCategorySumsProjection(sql: string): string {
  const grain = readsDays(sql) ? 'daily' : 'monthly';
  if (!reads(sql, CATEGORY_SUM_DROPPED_COLUMNS)) return withNamedProjection(sql, CATEGORY_SUM_PROJECTIONS[grain]);
  return grain === 'monthly' ? withNamedProjection(sql, CATEGORY_SUM_PROJECTIONS.monthlyWithColumns) : sql;
}

/** A commitments statement (commitments.query.ts) with the commitments' projection of the grain it reads. */
export function withCommitmentProjectionPreference(sql: string): string {
  return withNamedProjection(sql, readsDays(sql) ? COMMITMENT_PROJECTIONS.daily : COMMITMENT_PROJECTIONS.monthly);
}

function withNamedProjection(sql: string, projection: string): string {
  return `${sql}\nSETTINGS preferred_optimize_projection_name = '${projection}'`;
}

/** The projection of the statement's grain holding the maps it reads: full maps if any, else activated ones, else none. */
function preferredProjectionOf(sql: string): string {
  const grain = readsDays(sql) ? AGGREGATE_PROJECTIONS.daily : AGGREGATE_PROJECTIONS.monthly;
  if (
    reads(
      sql,
      MAPS.map((map) => map.column),
    )
  )
    return grain.fullMaps;
  if (
    reads(
      sql,
      MAPS.map((map) => map.activatedColumn),
    )
  )
    return grain.activatedMaps;
  return grain.dimensions;
}
