import { dataScopeConditions } from './filter-compiler';
import { OrganizationScope } from './filters.types';
import { CompiledSql, SqlParameters } from './sql-parameters';

/**
 * How fresh the rows a key sees are: their last usage date and when the latest of them was written
 * (`imported_at`, migration 0010), over all dates. NULLs (formatted as null) when there are none.
 */
export function buildDataFreshnessQuery(table: string, scope: OrganizationScope): CompiledSql {
  const params = new SqlParameters();
  const conditions = [
    `organization_id = ${params.named('organization_id', 'UUID', scope.organizationId)}`,
    ...dataScopeConditions(scope, params),
  ];
  const sql = [
    'SELECT toString(maxOrNull(usage_date)) AS dataThrough,',
    "       formatDateTime(maxOrNull(imported_at), '%Y-%m-%dT%H:%i:%SZ', 'UTC') AS importedAt",
    `FROM ${table}`,
    `WHERE ${conditions.join('\n  AND ')}`,
  ].join('\n');
  return { sql, params: params.toObject() };
}
