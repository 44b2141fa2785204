import { Injectable } from '@nestjs/common';
import { LeastRecentlyUsed } from '../common/cache/least-recently-used';
import { ActivatedKeys, scopeReadingActivatedMaps } from '../cost-query/activated-maps';
import type { DimensionRef } from '../cost-query/dimension-registry';
import type { Filters, OrganizationScope } from '../cost-query/filters.types';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { RuleCategoriesService } from '../cost-categories/rule-categories.service';
import { TagKeysRepository } from '../store/repositories/tag-keys.repository';

/** Organisations whose active keys are remembered at once (the least recently used is forgotten first). */
const REMEMBERED_ORGANIZATIONS = 1_000;

/**
 * Which of an organisation's tag and cost-category keys are answered from the activated columns, read once per
 * data version (an activation is a write to a table the version follows): what a question's scope says it reads.
 */
@Injectable()
export class ActivatedKeysService {
  private readonly organizations = new LeastRecentlyUsed<{ version: string; keys: Promise<ActivatedKeys> }>(REMEMBERED_ORGANIZATIONS);

  constructor(
    private readonly repository: TagKeysRepository,
    private readonly versions: CostDataVersion,
    private readonly ruleCategories: RuleCategoriesService,
  ) {}

  /**
   * The scope a question with these filters and groupings is answered in: the activated maps when every key it names is
   * active (activated-maps.ts), the rule-defined cost categories it names computed (cost-categories/).
   */
  async scopeFor(scope: OrganizationScope, filters: Filters, dimensions: readonly DimensionRef[] = []): Promise<OrganizationScope> {
    const activated = scopeReadingActivatedMaps(scope, await this.activeKeys(scope.organizationId), filters, dimensions);
    return this.ruleCategories.scopeFor(activated, filters, dimensions);
  }

  async activeKeys(organizationId: string): Promise<ActivatedKeys> {
    const id = organizationId.toLowerCase();
    const version = await this.versions.current(organizationId);
    const known = this.organizations.get(id);
    if (known?.version === version) return known.keys;
    const entry = { version, keys: this.repository.activeKeys(organizationId) };
    entry.keys.catch(() => this.organizations.forget(id, entry)); // a failed read is not remembered
    this.organizations.set(id, entry);
    return entry.keys;
  }
}
