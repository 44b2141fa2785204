import { Injectable } from '@nestjs/common';
import { clickhouseTimestamp } from '../../common/dates/clickhouse-time';
import { buildCategorySumsSelect, CATEGORY_SUM_COLUMNS } from '../../cost-query/category-sums.query';
import type { CategorySums, CompiledCategories } from '../../cost-query/filters.types';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/** A registered build of category sums and how old it is. */
export interface RegisteredCategoryBuild {
  buildId: string;
  ageSeconds: number;
}

/**
 * The SQL of category sums (migration 0038): writing a build, registering it once complete, finding a registered one.
 * Builds run on one thread: they are background work beside the answers.
 */
@Injectable()
export class CategorySumsRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  /** Where a statement reads a build. */
  sums(buildId: string): CategorySums {
    return { table: this.clickhouse.table('category_value_sums'), buildId };
  }

  /** The newest registered build of the organisation's `inputs` written less than `maxAgeSeconds` ago. */
  async find(organizationId: string, inputs: string, maxAgeSeconds: number): Promise<RegisteredCategoryBuild | undefined> {
    const [row] = await this.clickhouse.query<{ build_id: string; age_seconds: number }>(
      `SELECT toString(build_id) AS build_id, toUInt32(dateDiff('second', built_at, now64(6, 'UTC'))) AS age_seconds
       FROM ${this.clickhouse.table('category_sum_builds')}
       WHERE organization_id = {organization_id:UUID} AND inputs = {inputs:String}
         AND built_at > now64(6, 'UTC') - toIntervalSecond({max_age:UInt32})
       ORDER BY built_at DESC
       LIMIT 1`,
      { organization_id: organizationId, inputs, max_age: maxAgeSeconds },
      { organizationId },
    );
    return row ? { buildId: row.build_id, ageSeconds: Number(row.age_seconds) } : undefined;
  }

  /**
   * Writes the organisation's category sums of `months` (their first days) under `buildId`, a month per statement
   * (readers see them only once registered). Rows written.
   */
  async write(organizationId: string, buildId: string, categories: CompiledCategories, months: string[]): Promise<number> {
    const target = this.clickhouse.table('category_value_sums');
    for (const month of months) {
      const rows = buildCategorySumsSelect(this.clickhouse.table('cost_line_items'), organizationId, buildId, categories, month);
      await this.clickhouse.insertSelect(`INSERT INTO ${target} (${CATEGORY_SUM_COLUMNS.join(', ')})\n${rows.sql}`, rows.params, {
        max_threads: 1,
      });
    }
    const [row] = await this.clickhouse.query<{ rows: string }>(
      `SELECT toString(count()) AS rows FROM ${target} WHERE organization_id = {organization_id:UUID} AND build_id = {build_id:UUID}`,
      { organization_id: organizationId, build_id: buildId },
    );
    return Number(row?.rows ?? 0);
  }

  async register(organizationId: string, inputs: string, buildId: string, rowCount: number): Promise<void> {
    await this.clickhouse.insert('category_sum_builds', [
      { organization_id: organizationId, inputs, build_id: buildId, row_count: rowCount, built_at: clickhouseTimestamp(new Date()) },
    ]);
  }
}
