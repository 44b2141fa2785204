import { Injectable } from '@nestjs/common';
import { LeastRecentlyUsed } from '../common/cache/least-recently-used';
import { mapKeysNamed } from '../cost-query/activated-maps';
import {
  CategoryVersion,
  compileCategories,
  effectiveSegments,
  RuleDefinedCategory,
  VersionedCategory,
} from '../cost-query/cost-category-rules';
import type { DimensionRef } from '../cost-query/dimension-registry';
import type { Filters, OrganizationScope } from '../cost-query/filters.types';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { CategoryVersionRecord, CostCategoriesRepository, StoredDefinition } from '../store/repositories/cost-categories.repository';
import type { CategorySplitDefinition } from '../cost-query/cost-category-definition';
import type { CategorySplit } from '../cost-query/cost-splits';

/** Organisations whose definitions are remembered at once (the least recently used is forgotten first). */
const REMEMBERED_ORGANIZATIONS = 1_000;

/** The row columns rule-defined categories are computed from (cost_line_items). */
export const CATEGORY_COLUMNS = { imported: 'cost_categories', tags: 'resource_tags', billingMonth: 'billing_period' } as const;

/**
 * An organisation's rule-defined cost categories as its questions read them, read once per data version (a saved
 * version is a write to a table the version follows): a question naming one is answered from the map its rules compute.
 */
@Injectable()
export class RuleCategoriesService {
  private readonly organizations = new LeastRecentlyUsed<{ version: string; categories: Promise<VersionedCategory[]> }>(
    REMEMBERED_ORGANIZATIONS,
  );

  constructor(
    private readonly repository: CostCategoriesRepository,
    private readonly versions: CostDataVersion,
  ) {}

  /** `scope` with the rule-defined categories the question names (in its filters, grouping or data scope) computed. */
  async scopeFor(scope: OrganizationScope, filters: Filters, dimensions: readonly DimensionRef[] = []): Promise<OrganizationScope> {
    const named = mapKeysNamed(scope, filters, dimensions).filter((ref) => ref.kind === 'costCategory');
    if (named.length === 0) return scope;
    return this.withCategories(
      scope,
      named.map((ref) => ref.key),
    );
  }

  /** `scope` with every rule-defined category computed (listing the organisation's category keys and values). */
  async scopeWithAll(scope: OrganizationScope): Promise<OrganizationScope> {
    const categories = await this.categories(scope.organizationId);
    return this.withCategories(
      scope,
      categories.map((category) => category.key),
    );
  }

  /** The categories in effect in some month, with their segments. */
  async categories(organizationId: string): Promise<VersionedCategory[]> {
    const id = organizationId.toLowerCase();
    const version = await this.versions.current(organizationId);
    const known = this.organizations.get(id);
    if (known?.version === version) return known.categories;
    const entry = { version, categories: this.repository.versions(organizationId).then(versionedCategories) };
    entry.categories.catch(() => this.organizations.forget(id, entry)); // a failed read is not remembered
    this.organizations.set(id, entry);
    return entry.categories;
  }

  private async withCategories(scope: OrganizationScope, keys: readonly string[]): Promise<OrganizationScope> {
    const compiled = compileCategories(await this.categories(scope.organizationId), keys, CATEGORY_COLUMNS);
    // The activated maps hold imported values only: a question computing a category reads the full maps.
    return compiled ? { ...scope, readsActivatedMaps: false, ruleCategories: compiled } : scope;
  }
}

/** The saved versions (per key, in the order saved) as the segments each category's months follow. */
export function versionedCategories(records: readonly CategoryVersionRecord[]): VersionedCategory[] {
  const byKey = new Map<string, CategoryVersion[]>();
  for (const record of records) {
    const versions = byKey.get(record.key) ?? [];
    const { definition } = record;
    versions.push({
      effectiveFrom: record.effectiveFrom,
      ...(definition ? { category: ruleDefinedCategory(record.key, definition) } : {}),
    });
    byKey.set(record.key, versions);
  }
  return [...byKey]
    .map(([key, versions]) => ({ key, segments: effectiveSegments(versions) }))
    .filter((category) => category.segments.length > 0);
}

/** A definition (saved or proposed) as questions read it: its rules, default and splits. */
export function ruleDefinedCategory(
  key: string,
  definition: Pick<StoredDefinition, 'defaultValue' | 'rules'> & { splits?: CategorySplitDefinition[] },
): RuleDefinedCategory {
  return { key, defaultValue: definition.defaultValue, rules: definition.rules, splits: definition.splits?.map(categorySplit) };
}

/** A saved split as questions apply it: its source one of value or filters, percentages as decimal text. */
export function categorySplit(split: CategorySplitDefinition): CategorySplit {
  return {
    source: split.source.filters ? { filters: split.source.filters } : { value: split.source.value ?? '' },
    targets: split.targets,
    method: split.method,
    ...(split.percentages ? { percentages: split.percentages.map((percentage) => String(percentage)) } : {}),
  };
}
