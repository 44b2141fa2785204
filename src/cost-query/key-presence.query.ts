import { MAP_DIMENSIONS, MapDimensionKind } from './filter-fields';

/** The window a key's presence is measured over: the latest days of the rows described. */
export const PRESENCE_DAYS = 90;

/** A key's presence in some cost rows, as keyPresenceSql gives it (counts as text: they may pass 2^53). */
export interface KeyPresenceRow {
  kind: MapDimensionKind;
  key: string;
  /** Of the amortized cost over the window, the share on rows that carry the key (0–1, 4 decimals). */
  cost_share: number;
  distinct_values: string;
  /** Resources (FOCUS ResourceId) whose rows carry the key; 0 when the rows name none. */
  resources: string;
}

/**
 * Every tag and cost-category key of `rows` where `condition` holds, over their latest PRESENCE_DAYS (up to their
 * last usage date, so an import of past months is described too): the share of cost it tags, its distinct values and
 * the resources carrying it; at most 1,000 keys, the most costly first. `rows` is a table or a subquery with the
 * maps, amortized_cost, resource_id and usage_date (an organisation's line items, or the files of its first import),
 * read once: each row is summed per day for the window's total (kind '') and per key it carries, the days are then cut
 * to the window.
 */
export function keyPresenceSql(rows: string, condition: string): string {
  const entries = (Object.keys(MAP_DIMENSIONS) as MapDimensionKind[]).map((kind) => {
    const map = MAP_DIMENSIONS[kind].column;
    return `arrayMap((k, v) -> tuple('${kind}', k, v), mapKeys(${map}), mapValues(${map}))`;
  });
  return `SELECT kind, key, if(total = 0, 0, round(toFloat64(key_cost / total), 4)) AS cost_share,
       toString(distinct_values) AS distinct_values, toString(resources) AS resources
FROM (
  SELECT kind, key, sum(day_cost) AS key_cost, uniqExactMerge(day_values) AS distinct_values,
         uniqExactMerge(day_resources) AS resources, any(window_total) AS total
  FROM (
    SELECT *, sumIf(day_cost, kind = '') OVER () AS window_total
    FROM (SELECT *, max(usage_date) OVER () AS last_day FROM (
      SELECT usage_date, entry.1 AS kind, entry.2 AS key, sum(cost) AS day_cost, uniqExactState(entry.3) AS day_values,
             uniqExactStateIf(resource, resource != '') AS day_resources
      FROM (
        SELECT usage_date, amortized_cost AS cost, resource_id AS resource,
               arrayJoin(arrayConcat([tuple('', '', '')], ${entries.join(', ')})) AS entry
        FROM ${rows}
        WHERE ${condition}
      )
      GROUP BY usage_date, kind, key
    ))
    WHERE usage_date > last_day - ${PRESENCE_DAYS}
  )
  WHERE kind != ''
  GROUP BY kind, key
)
ORDER BY kind DESC, cost_share DESC, key
LIMIT 1000`;
}
