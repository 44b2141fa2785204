import { FILTER_FIELD_ENTRIES, MAP_DIMENSIONS } from './filter-fields';
import { FilterFields, Filters, OrganizationScope } from './filters.types';

/**
 * A key's data scope: the rows it may see inside its organisation, as Filters without dates (chosen when
 * the key is created, validated by the request DTOs' rules, fixed for the key's life). Every statement
 * for the key ANDs it (compileWhere), so no request can widen it. Stored and carried as its canonical
 * JSON: one spelling per scope, so equal scopes compare equal (answer cache keys, shared filters).
 */

/**
 * The one spelling of a scope: fields in the field table's order, values unique and sorted by code
 * point, empty lists and unset keys left out (a key's values only with their key); '' when it restricts
 * nothing.
 */
export function canonicalDataScope(scope: Filters): string {
  const canonical: Filters = {};
  for (const side of ['inclusions', 'exclusions'] as const) {
    const fields = canonicalFields(scope[side] ?? {});
    if (Object.keys(fields).length > 0) canonical[side] = fields;
  }
  return Object.keys(canonical).length > 0 ? JSON.stringify(canonical) : '';
}

function canonicalFields(fields: FilterFields): FilterFields {
  const canonical: Record<string, unknown> = {};
  for (const [name, field] of FILTER_FIELD_ENTRIES) {
    if (field.kind === 'list') {
      const values = fields[name] as string[] | undefined;
      if (values?.length) canonical[name] = sortedUnique(values);
    } else if (field.kind === 'mapKey') {
      const key = fields[name] as string | null | undefined;
      if (key === undefined || key === null) continue;
      canonical[name] = key;
      const valuesField = MAP_DIMENSIONS[field.map].valuesField;
      const values = fields[valuesField];
      if (values?.length) canonical[valuesField] = sortedUnique(values);
    }
  }
  return canonical as FilterFields;
}

function sortedUnique(values: string[]): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Parsed scopes by their stored text: a handful of keys, each parsed once. */
const parsed = new Map<string, Filters>();

/** The query scope of an authenticated key: its organisation and, when it has one, its data scope. */
export function organizationScopeOf(key: { organizationId: string; dataScope?: string }): OrganizationScope {
  if (!key.dataScope) return { organizationId: key.organizationId };
  let dataScope = parsed.get(key.dataScope);
  if (!dataScope) {
    dataScope = JSON.parse(key.dataScope) as Filters;
    if (parsed.size >= 10_000) parsed.clear();
    parsed.set(key.dataScope, dataScope);
  }
  return { organizationId: key.organizationId, dataScope };
}

/** The scope in words, for people choosing or reviewing keys: `services in (Amazon EC2); not tag team in (x)`. */
export function describeDataScope(scope: Filters | undefined): string {
  if (!scope) return 'the whole organisation';
  const parts: string[] = [];
  for (const side of ['inclusions', 'exclusions'] as const) {
    const fields = scope[side] ?? {};
    for (const [name, field] of FILTER_FIELD_ENTRIES) {
      const not = side === 'exclusions' ? 'not ' : '';
      if (field.kind === 'list' && (fields[name] as string[] | undefined)?.length) {
        parts.push(`${not}${name} in (${(fields[name] as string[]).join(', ')})`);
      } else if (field.kind === 'mapKey' && typeof fields[name] === 'string') {
        const values = fields[MAP_DIMENSIONS[field.map].valuesField];
        const what = `${field.map === 'tag' ? 'tag' : 'cost category'} ${fields[name] as string}`;
        parts.push(values?.length ? `${not}${what} in (${values.join(', ')})` : `${not}${what} present`);
      }
    }
  }
  return parts.join('; ');
}
