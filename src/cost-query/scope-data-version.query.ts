import { dataScopeConditions } from './filter-compiler';
import { OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/**
 * A version of the rows inside a key's data scope (over all dates), for what must change with them and
 * with nothing else: how many there are, when the latest was written and the sum of their write times.
 * An insert adds rows; an import's partition swap writes its rows anew (a later `imported_at`); a deletion
 * takes rows and their write times away. Rows of the organisation outside the scope, and merges (which keep
 * rows and their `imported_at`), leave it as it is.
 */
export function buildScopeDataVersionQuery(table: string, scope: OrganizationScope): CompiledSql {
  const params = new SqlParameters();
  const conditions = [
    `organization_id = ${params.named('organization_id', 'UUID', scope.organizationId)}`,
    ...dataScopeConditions(scope, params),
  ];
  const sql = [
    'SELECT toString(count()) AS row_count, toString(toUInt32(max(imported_at))) AS latest, toString(sum(toUInt64(toUInt32(imported_at)))) AS written',
    `FROM ${table}`,
    `WHERE ${conditions.join('\n  AND ')}`,
  ].join('\n');
  return { sql, params: params.toObject() };
}
