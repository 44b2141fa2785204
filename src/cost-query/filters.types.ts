import { FilterFields } from './filter-fields';
import type { CategorySplit } from './cost-splits';

/** Plain shapes of the spec's Filters objects, as the query kernel consumes them (fields: filter-fields.ts). */
export type { DateRange, FilterFields } from './filter-fields';

export interface Filters {
  inclusions?: FilterFields;
  exclusions?: FilterFields;
}

/**
 * The organisation every query is confined to, and the key's data scope within it (data-scope.ts). Both
 * come from the API key, never from a request.
 */
export interface OrganizationScope {
  organizationId: string;
  /** Filters without dates that every statement ANDs; absent: the whole organisation. */
  dataScope?: Filters;
  /**
   * Every tag and cost-category key the question names is active for the organisation: its maps are read from the
   * activated columns (activated-maps.ts). Set from the organisation's stored activations, never from a request.
   */
  readsActivatedMaps?: boolean;
  /**
   * The row's cost categories with the rule-defined ones the question names computed by their rules
   * (cost-category-rules.ts): read instead of the imported map. Set from the organisation's saved definitions only.
   */
  ruleCategories?: CompiledCategories;
  /**
   * A registered build of category sums (migration 0038) read instead of the cost rows, its map holding the
   * rule-defined categories' values (then `ruleCategories.sql` names it). Set by the service from the store only.
   */
  categorySums?: CategorySums;
}

/** Where a statement reads a registered build of category sums: its table and its id. */
export interface CategorySums {
  table: string;
  buildId: string;
}

/**
 * The cost-categories map of a question naming rule-defined categories: SQL over the row, with parameters of its own
 * (compiled by cost-category-rules.ts).
 */
export interface CompiledCategories {
  /** The rule-defined keys the expression sets (those named, and those their rules read). */
  keys: readonly string[];
  sql: string;
  params: Record<string, unknown>;
  /** The named categories with shared-cost splits in some version: per version's months (from yyyy-MM), its splits. */
  splits?: ReadonlyMap<string, readonly SplitSegment[]>;
}

/** The splits of a rule-defined category in the billing months from `from` to the next segment's. */
export interface SplitSegment {
  from: string;
  splits: readonly CategorySplit[];
}
