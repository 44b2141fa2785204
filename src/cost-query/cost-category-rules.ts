import { MAP_DIMENSIONS } from './filter-fields';
import { rowCondition } from './filter-compiler';
import type { Filters } from './filters.types';
import { SqlParameters } from './sql-parameters';

/**
 * Cost categories an organisation defines by rules (allocation): each row's value is the first rule's that matches
 * it, else the default. A rule gives a fixed value, or inherits a tag's or another category's value (falling through
 * where the row has none); `when` (Filters without dates) narrows the rows it applies to.
 */
export interface CategoryRule {
  value?: string;
  inheritTag?: string;
  inheritCategory?: string;
  when?: Filters;
  /** Tag values in `when` compared without case (`Application`, `APPLICATION` and `application` alike). */
  caseInsensitive?: boolean;
}

export interface RuleDefinedCategory {
  key: string;
  defaultValue: string;
  rules: readonly CategoryRule[];
}

/** The categories in an order in which each comes after those it reads, or the first cycle found. */
export function evaluationOrder(categories: readonly RuleDefinedCategory[]): { order: RuleDefinedCategory[] } | { cycle: string[] } {
  const byKey = new Map(categories.map((category) => [category.key, category]));
  const order: RuleDefinedCategory[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (key: string, path: string[]): string[] | undefined => {
    if (state.get(key) === 'done') return undefined;
    if (state.get(key) === 'visiting') return [...path.slice(path.indexOf(key)), key];
    state.set(key, 'visiting');
    for (const read of categoriesRead(byKey.get(key)!)) {
      if (!byKey.has(read)) continue; // an imported category: no rule to order
      const cycle = visit(read, [...path, key]);
      if (cycle) return cycle;
    }
    state.set(key, 'done');
    order.push(byKey.get(key)!);
    return undefined;
  };
  for (const category of categories) {
    const cycle = visit(category.key, []);
    if (cycle) return { cycle };
  }
  return { order };
}

/** The cost-category keys a category's rules read: inherited, or named in a `when`. */
export function categoriesRead(category: RuleDefinedCategory): string[] {
  const keys = new Set<string>();
  for (const rule of category.rules) {
    if (rule.inheritCategory !== undefined) keys.add(rule.inheritCategory);
    for (const side of [rule.when?.inclusions, rule.when?.exclusions]) {
      const key = side?.[MAP_DIMENSIONS.costCategory.keyField];
      if (typeof key === 'string') keys.add(key);
    }
  }
  return [...keys];
}

/**
 * A row's cost categories with the rule-defined ones applied: the map `imported` (what the export said) with each
 * rule-defined key set to its value, the categories in evaluation order so that a rule reading a category reads its
 * computed value. Values travel as parameters.
 */
export function costCategoriesSql(order: readonly RuleDefinedCategory[], params: SqlParameters, imported: string, tags: string): string {
  let categories = imported;
  for (const category of order) {
    const value = categoryValueSql(category, params, { tag: tags, costCategory: categories });
    categories = `mapUpdate(${categories}, map(${params.add('String', category.key)}, ${value}))`;
  }
  return categories;
}

/** One category's value for a row: `multiIf` over its rules in order, the default last. */
export function categoryValueSql(
  category: RuleDefinedCategory,
  params: SqlParameters,
  maps: { tag: string; costCategory: string },
): string {
  const branches: string[] = [];
  for (const rule of category.rules) {
    const when = rule.when && rowCondition(rule.when, params, { columns: maps, caseInsensitiveTags: rule.caseInsensitive });
    const inherited =
      rule.inheritTag !== undefined
        ? `${maps.tag}[${params.add('String', rule.inheritTag)}]`
        : rule.inheritCategory !== undefined
          ? `${maps.costCategory}[${params.add('String', rule.inheritCategory)}]`
          : undefined;
    if (inherited !== undefined) {
      branches.push(when ? `(${when}) AND ${inherited} != ''` : `${inherited} != ''`, inherited);
    } else {
      branches.push(when ?? '1', params.add('String', rule.value ?? ''));
    }
  }
  const fallback = params.add('String', category.defaultValue);
  return branches.length > 0 ? `multiIf(${[...branches, fallback].join(', ')})` : fallback;
}
