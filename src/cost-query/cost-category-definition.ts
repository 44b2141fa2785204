import { CategoryRule, evaluationOrder, RuleDefinedCategory } from './cost-category-rules';
import { scaled } from '../common/money/scaled-decimal';
import { firstHiddenCharacter } from '../common/text/hidden-characters';
import { MAX_MAP_KEY_LENGTH } from './dimension-registry';
import { SplitMethod } from './cost-splits';
import type { Filters } from './filters.types';

/** The most rules one category holds (every row evaluates them in order). */
export const MAX_CATEGORY_RULES = 500;
/** The most split rules one category holds, and targets one split names. */
export const MAX_CATEGORY_SPLITS = 20;
export const MAX_SPLIT_TARGETS = 100;
export const SPLIT_METHODS: readonly SplitMethod[] = ['proportional', 'fixed', 'even'];

/** A split of a category's definition as an administrator writes it. */
export interface CategorySplitDefinition {
  source: { value?: string; filters?: Filters };
  targets: string[];
  method: SplitMethod;
  percentages?: number[];
}

/** One version of a rule-defined cost category, as given to `PUT /v1/admin/cost-categories/{key}`. */
export interface CostCategoryDefinition {
  /** The first billing month (yyyy-MM) the version is in effect for. */
  effectiveFrom: string;
  defaultValue: string;
  rules: CategoryRule[];
  splits?: CategorySplitDefinition[];
}

/** What is wrong with a category's key (the API's path parameter, the CLI's argument): none or one problem. */
export function categoryKeyProblems(key: string): string[] {
  if (key.length < 1 || key.length > MAX_MAP_KEY_LENGTH) return [`key: 1 to ${MAX_MAP_KEY_LENGTH} characters`];
  if (firstHiddenCharacter(key) !== undefined) return ['key: contains a control or invisible character'];
  // `Team ` would be a second category beside `Team`, told apart by nothing a reader sees.
  if (key.trim() !== key) return ['key: starts or ends with a space'];
  return [];
}

/**
 * What is wrong with a definition beyond its shape (which the request DTO checks), each naming its field: a rule
 * that gives no value or two, a split's percentages, a target the rules cannot give, a category read in a cycle.
 * `others` are the organisation's other rule-defined categories (their latest versions).
 */
export function definitionProblems(key: string, definition: CostCategoryDefinition, others: readonly RuleDefinedCategory[]): string[] {
  const problems = categoryKeyProblems(key);
  if (definition.rules.length === 0) problems.push('rules: at least one rule');
  if (definition.rules.length > MAX_CATEGORY_RULES) problems.push(`rules: at most ${MAX_CATEGORY_RULES}, got ${definition.rules.length}`);
  definition.rules.forEach((rule, index) => {
    const gives = [rule.value, rule.inheritTag, rule.inheritCategory].filter((given) => given !== undefined);
    if (gives.length !== 1) problems.push(`rules[${index}]: exactly one of value, inheritTag, inheritCategory`);
    if (rule.inheritCategory === key) problems.push(`rules[${index}].inheritCategory: a category cannot inherit itself`);
  });
  problems.push(...splitProblems(definition));
  const cycle = cycleWith(key, definition, others);
  if (cycle) problems.push(`rules: the categories read each other in a cycle: ${cycle.join(' → ')}`);
  return problems;
}

/** The values a category's rules can give: its literal values and default, or any value when a rule inherits one. */
export function possibleValues(definition: Pick<CostCategoryDefinition, 'rules' | 'defaultValue'>): Set<string> | 'any' {
  if (definition.rules.some((rule) => rule.inheritTag !== undefined || rule.inheritCategory !== undefined)) return 'any';
  return new Set([...definition.rules.map((rule) => rule.value!), definition.defaultValue]);
}

function splitProblems(definition: CostCategoryDefinition): string[] {
  const problems: string[] = [];
  const splits = definition.splits ?? [];
  if (splits.length > MAX_CATEGORY_SPLITS) problems.push(`splits: at most ${MAX_CATEGORY_SPLITS}, got ${splits.length}`);
  const values = possibleValues(definition);
  splits.forEach((split, index) => {
    const at = `splits[${index}]`;
    const { value, filters } = split.source;
    if ((value === undefined) === (filters === undefined)) problems.push(`${at}.source: exactly one of value, filters`);
    if (split.targets.length === 0 || split.targets.length > MAX_SPLIT_TARGETS)
      problems.push(`${at}.targets: 1 to ${MAX_SPLIT_TARGETS} values, got ${split.targets.length}`);
    if (new Set(split.targets).size !== split.targets.length) problems.push(`${at}.targets: a value named twice`);
    split.targets.forEach((target, t) => {
      if (values !== 'any' && !values.has(target)) problems.push(`${at}.targets[${t}]: "${target}" is not a value the rules can give`);
    });
    problems.push(...percentageProblems(at, split));
  });
  return problems;
}

function percentageProblems(at: string, split: CategorySplitDefinition): string[] {
  if (split.method !== 'fixed') return split.percentages === undefined ? [] : [`${at}.percentages: only with method fixed`];
  const percentages = split.percentages ?? [];
  if (percentages.length !== split.targets.length)
    return [`${at}.percentages: one per target (${split.targets.length}), got ${percentages.length}`];
  const units = percentages.map((percentage) => percentageUnits(percentage));
  if (units.some((unit) => unit === undefined || unit < 0n)) return [`${at}.percentages: each from 0 to 100, at most 10 decimal places`];
  const total = units.reduce((sum: bigint, unit) => sum + unit!, 0n);
  return total === scaled('100') ? [] : [`${at}.percentages: must sum to 100, they sum to ${Number(total) / 1e10}`];
}

function percentageUnits(percentage: number): bigint | undefined {
  if (!Number.isFinite(percentage) || percentage > 100) return undefined;
  try {
    return scaled(String(percentage));
  } catch {
    return undefined;
  }
}

function cycleWith(key: string, definition: CostCategoryDefinition, others: readonly RuleDefinedCategory[]): string[] | undefined {
  const categories = [
    ...others.filter((other) => other.key !== key),
    { key, defaultValue: definition.defaultValue, rules: definition.rules },
  ];
  const ordered = evaluationOrder(categories);
  return 'cycle' in ordered ? ordered.cycle : undefined;
}
