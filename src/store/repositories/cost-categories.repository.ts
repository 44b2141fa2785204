import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { clickhouseTimestamp, isoFromClickhouse } from '../../common/dates/clickhouse-time';
import type { CategoryRule } from '../../cost-query/cost-category-rules';
import type { CategorySplitDefinition } from '../../cost-query/cost-category-definition';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/** Every version of every rule-defined category (migration 0030): append-only. */
const VERSIONS_TABLE = 'cost_category_versions';

/** What a version says, as stored: a deletion says nothing. */
export interface StoredDefinition {
  defaultValue: string;
  rules: CategoryRule[];
  splits: CategorySplitDefinition[];
}

/** One saved version of a category, numbered from 1 in the order the organisation saved them. */
export interface CategoryVersionRecord {
  key: string;
  version: number;
  effectiveFrom: string;
  /** Absent for a deletion. */
  definition?: StoredDefinition;
  createdAt: string;
  createdBy: string;
}

interface VersionRow {
  key: string;
  created_at: string;
  effective_from: string;
  definition: string;
  deleted: number | string;
  created_by: string;
}

/** The SQL of an organisation's rule-defined cost categories. The organisation always comes from the key or session. */
@Injectable()
export class CostCategoriesRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  /** Every version of every category of the organisation, per key in the order saved. */
  async versions(organizationId: string, key?: string): Promise<CategoryVersionRecord[]> {
    const rows = await this.clickhouse.query<VersionRow>(
      `SELECT key, toString(created_at) AS created_at, effective_from, definition, deleted, created_by
       FROM ${this.clickhouse.table(VERSIONS_TABLE)}
       WHERE organization_id = {organization_id:UUID} ${key === undefined ? '' : 'AND key = {key:String}'}
       ORDER BY key, created_at, version_id`,
      { organization_id: organizationId, ...(key === undefined ? {} : { key }) },
      { organizationId },
    );
    const counts = new Map<string, number>();
    return rows.map((row) => {
      const version = (counts.get(row.key) ?? 0) + 1;
      counts.set(row.key, version);
      return {
        key: row.key,
        version,
        effectiveFrom: row.effective_from,
        ...(Number(row.deleted) === 1 ? {} : { definition: JSON.parse(row.definition) as StoredDefinition }),
        createdAt: isoFromClickhouse(row.created_at),
        createdBy: row.created_by,
      };
    });
  }

  /** Saves a version (a definition) or a deletion (none) of one category. */
  async save(organizationId: string, key: string, effectiveFrom: string, createdBy: string, definition?: StoredDefinition): Promise<void> {
    await this.clickhouse.insert(VERSIONS_TABLE, [
      {
        organization_id: organizationId,
        key,
        created_at: clickhouseTimestamp(new Date()),
        version_id: randomUUID(),
        effective_from: effectiveFrom,
        definition: definition ? JSON.stringify(definition) : '',
        deleted: definition ? 0 : 1,
        created_by: createdBy,
      },
    ]);
  }
}
