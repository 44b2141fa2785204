import type { CategorySplit } from './cost-splits';
import { MAP_DIMENSIONS } from './filter-fields';
import { FieldLookup, lookupExpression, onlyLookup, rowCondition, RowMaps } from './filter-compiler';
import type { CompiledCategories, Filters, SplitSegment } from './filters.types';
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
  /** Shared-cost splits applied to answers grouped or filtered by the category (split-adjustments.ts), in order. */
  splits?: readonly CategorySplit[];
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
 * One category's value for a row: `multiIf` over its rules in order, the default last. Consecutive rules that each
 * give a value when one same field has one of some values (40 rules on the `team` tag, 50 on services) are one
 * branch: a lookup of that field in their values, the first rule's value where two list the same value, so a row
 * evaluates a few lookups, not every rule's condition.
 */
export function categoryValueSql(
  category: RuleDefinedCategory,
  params: SqlParameters,
  maps: { tag: string; costCategory: string },
): string {
  const branches: string[] = [];
  for (const run of ruleRuns(category.rules, maps)) {
    if (run.rules.length > 1) {
      branches.push(...lookupBranch(run.rules, run.lookups, params, maps));
      continue;
    }
    const [rule] = run.rules;
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

/** Rules in order, in runs: value rules looking up one same field together (with their lookups), any other alone. */
function ruleRuns(rules: readonly CategoryRule[], maps: RowMaps['columns']): Array<{ rules: CategoryRule[]; lookups: FieldLookup[] }> {
  const runs: Array<{ rules: CategoryRule[]; lookups: FieldLookup[] }> = [];
  for (const rule of rules) {
    const lookup = valueLookup(rule, maps);
    const last = runs.at(-1);
    if (lookup && last?.lookups.length && JSON.stringify(last.lookups[0].field) === JSON.stringify(lookup.field)) {
      last.rules.push(rule);
      last.lookups.push(lookup);
    } else runs.push({ rules: [rule], lookups: lookup ? [lookup] : [] });
  }
  return runs;
}

/** The lookup a rule's condition is, when the rule gives a value (not an inherited one) on one field's values alone. */
function valueLookup(rule: CategoryRule, maps: RowMaps['columns']): FieldLookup | undefined {
  if (rule.value === undefined || rule.inheritTag !== undefined || rule.inheritCategory !== undefined || !rule.when) return undefined;
  return onlyLookup(rule.when, { columns: maps, caseInsensitiveTags: rule.caseInsensitive });
}

/** One run's branch: where the field holds one of the run's values, the value of the first rule listing it. */
function lookupBranch(
  rules: readonly CategoryRule[],
  lookups: readonly FieldLookup[],
  params: SqlParameters,
  maps: RowMaps['columns'],
): [string, string] {
  const valueOf = new Map<string, string>();
  lookups.forEach((lookup, i) => {
    for (const value of lookup.values) if (!valueOf.has(value)) valueOf.set(value, rules[i].value!);
  });
  const field = lookupExpression(lookups[0], params, { organizationId: '' }, { columns: maps });
  const from = params.add('Array(String)', [...valueOf.keys()]);
  return [`has(${from}, ${field})`, `transform(${field}, ${from}, ${params.add('Array(String)', [...valueOf.values()])}, '')`];
}

/** One saved version of a category, in creation order: in effect from its billing month on; no `category`: deleted. */
export interface CategoryVersion {
  /** yyyy-MM. */
  effectiveFrom: string;
  category?: RuleDefinedCategory;
}

/** The months one version governs: from `from` (yyyy-MM) to the next segment's month. */
export interface CategorySegment {
  from: string;
  category: RuleDefinedCategory;
}

/** A rule-defined category as questions read it: its segments in month order. */
export interface VersionedCategory {
  key: string;
  segments: readonly CategorySegment[];
}

/**
 * The segments a category's versions leave (given in creation order): each version takes over its month and every
 * later one, whatever earlier versions said about them (history rewritten explicitly); a deletion ends the category.
 */
export function effectiveSegments(versions: readonly CategoryVersion[]): CategorySegment[] {
  let segments: CategorySegment[] = [];
  for (const version of versions) {
    if (!version.category) {
      segments = [];
      continue;
    }
    segments = [
      ...segments.filter((segment) => segment.from < version.effectiveFrom),
      { from: version.effectiveFrom, category: version.category },
    ];
  }
  return segments;
}

/** The columns a row's categories are computed from. */
export interface CategoryColumns {
  imported: string;
  tags: string;
  /** yyyy-MM of the row's billing period: which version is in effect. */
  billingMonth: string;
}

/** Placeholders of the compiled categories: apart from a statement's own `p…` and named ones. */
const CATEGORY_PARAMETER_PREFIX = 'cat';

/**
 * The expression of a row's cost categories where the named rule-defined keys (and the categories their rules read)
 * hold their rules' values in the months their versions are in effect for; the imported map elsewhere. Categories are
 * set in evaluation order, so a rule reading another category reads its computed value.
 */
export function compileCategories(
  categories: readonly VersionedCategory[],
  named: readonly string[],
  columns: CategoryColumns,
): CompiledCategories | undefined {
  const byKey = new Map(categories.filter((category) => category.segments.length > 0).map((category) => [category.key, category]));
  const needed = readClosure(byKey, named);
  if (needed.length === 0) return undefined;
  const result = evaluationOrder(needed.map((key) => unionOfVersions(byKey.get(key)!)));
  if ('cycle' in result) throw new Error(`cost categories read each other in a cycle: ${result.cycle.join(' → ')}`);
  const params = new SqlParameters(CATEGORY_PARAMETER_PREFIX);
  let sql = columns.imported;
  for (const [index, { key }] of result.order.entries()) {
    const category = byKey.get(key)!;
    // A category reading categories reads the map so far through a lambda's parameter: written once, not once per
    // rule reading it (the SQL would otherwise grow with every category a rule reads).
    const readsCategories = categoriesRead(unionOfVersions(category)).length > 0;
    const categoriesSoFar = readsCategories ? `categories_${index}` : sql;
    const maps = { tag: columns.tags, costCategory: categoriesSoFar };
    const month = (segment: CategorySegment) => `${columns.billingMonth} >= ${params.add('String', segment.from)}`;
    const branches = category.segments
      .slice(1)
      .reverse()
      .flatMap((segment) => [month(segment), categoryValueSql(segment.category, params, maps)]);
    const first = categoryValueSql(category.segments[0].category, params, maps);
    const value = branches.length > 0 ? `multiIf(${[...branches, first].join(', ')})` : first;
    // Before its first version a category is what the export said: the map is left as it was.
    const update = `if(${month(category.segments[0])}, map(${params.add('String', key)}, ${value}), CAST(map(), 'Map(String, String)'))`;
    const updated = `mapUpdate(${categoriesSoFar}, ${update})`;
    sql = readsCategories ? `arrayMap(${categoriesSoFar} -> ${updated}, [${sql}])[1]` : updated;
  }
  return { keys: result.order.map((category) => category.key), sql, params: params.toObject(), splits: splitSegments(byKey, named) };
}

/** The months of each named category that has splits in some version: each segment's splits (none: an empty list). */
function splitSegments(byKey: ReadonlyMap<string, VersionedCategory>, named: readonly string[]): Map<string, SplitSegment[]> {
  const segments = new Map<string, SplitSegment[]>();
  for (const key of new Set(named)) {
    const category = byKey.get(key);
    if (!category?.segments.some((segment) => (segment.category.splits?.length ?? 0) > 0)) continue;
    segments.set(
      key,
      category.segments.map((segment) => ({ from: segment.from, splits: segment.category.splits ?? [] })),
    );
  }
  return segments;
}

/** The rule-defined keys among `named`, with every rule-defined key their rules read, transitively. */
function readClosure(byKey: ReadonlyMap<string, VersionedCategory>, named: readonly string[]): string[] {
  const needed = new Set<string>();
  const visit = (key: string): void => {
    const category = byKey.get(key);
    if (!category || needed.has(key)) return;
    needed.add(key);
    categoriesRead(unionOfVersions(category)).forEach(visit);
  };
  named.forEach(visit);
  return [...needed];
}

/** One category holding every version's rules: what the category may read in any month (for ordering). */
export function unionOfVersions(category: VersionedCategory): RuleDefinedCategory {
  return { key: category.key, defaultValue: '', rules: category.segments.flatMap((segment) => segment.category.rules) };
}
