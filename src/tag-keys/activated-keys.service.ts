import { Injectable } from '@nestjs/common';
import { ActivatedKeys, scopeReadingActivatedMaps } from '../cost-query/activated-maps';
import type { DimensionRef } from '../cost-query/dimension-registry';
import type { Filters, OrganizationScope } from '../cost-query/filters.types';
import { CostDataVersion } from '../infrastructure/data-version/cost-data-version.service';
import { TagKeysRepository } from './tag-keys.repository';

/** Organisations whose active keys are remembered at once (the least recently used is forgotten first). */
const REMEMBERED_ORGANIZATIONS = 1_000;

/**
 * Which of an organisation's tag and cost-category keys are answered from the activated columns, read once per
 * data version (an activation is a write to a table the version follows): what a question's scope says it reads.
 */
@Injectable()
export class ActivatedKeysService {
  private readonly organizations = new Map<string, { version: string; keys: Promise<ActivatedKeys> }>();

  constructor(
    private readonly repository: TagKeysRepository,
    private readonly versions: CostDataVersion,
  ) {}

  /** The scope a question with these filters and groupings is answered in (activated-maps.ts). */
  async scopeFor(scope: OrganizationScope, filters: Filters, dimensions: readonly DimensionRef[] = []): Promise<OrganizationScope> {
    return scopeReadingActivatedMaps(scope, await this.activeKeys(scope.organizationId), filters, dimensions);
  }

  async activeKeys(organizationId: string): Promise<ActivatedKeys> {
    const id = organizationId.toLowerCase();
    const version = await this.versions.current(organizationId);
    const known = this.organizations.get(id);
    this.organizations.delete(id); // re-inserted last: the map's order is the order of use
    if (known?.version === version) {
      this.organizations.set(id, known);
      return known.keys;
    }
    const keys = this.repository.activeKeys(organizationId);
    keys.catch(() => this.organizations.delete(id));
    this.organizations.set(id, { version, keys });
    if (this.organizations.size > REMEMBERED_ORGANIZATIONS) this.organizations.delete(this.organizations.keys().next().value!);
    return keys;
  }
}
