import { Injectable } from '@nestjs/common';
import { clickhouseTimestamp } from '../../common/dates/clickhouse-time';
import { ConversionPolicy } from '../../common/money/exchange-rates';
import { buildConvertedSumsSelect, CONVERTED_SUM_COLUMNS } from '../../cost-query/converted-sums.query';
import { ConvertedSums, CurrencyConversion } from '../../cost-query/currency-conversion';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/** A registered build: which one, the currencies it converted (bit order), and how old it is. */
export interface RegisteredBuild {
  buildId: string;
  currencies: string[];
  ageSeconds: number;
}

/** What a build is registered under: the organisation's inputs (a digest), the answer currency and the policy. */
export interface BuildKey {
  organizationId: string;
  inputs: string;
  target: string;
  policy: ConversionPolicy;
}

/**
 * The SQL of converted sums (migration 0021): writing a build, registering it once complete, finding a registered
 * one. Builds run on one thread: they are background work beside the answers.
 */
@Injectable()
export class ConvertedSumsRepository {
  constructor(private readonly clickhouse: ClickhouseService) {}

  /** Where a statement reads a build. */
  sums(build: Pick<RegisteredBuild, 'buildId' | 'currencies'>): ConvertedSums {
    return { table: this.clickhouse.table('converted_cost_sums'), buildId: build.buildId, currencies: build.currencies };
  }

  /** The newest registered build of `key` written less than `maxAgeSeconds` ago. */
  async find(key: BuildKey, maxAgeSeconds: number): Promise<RegisteredBuild | undefined> {
    const [row] = await this.clickhouse.query<{ build_id: string; converted_currencies: string[]; age_seconds: number }>(
      `SELECT toString(build_id) AS build_id, converted_currencies,
              toUInt32(dateDiff('second', built_at, now64(6, 'UTC'))) AS age_seconds
       FROM ${this.clickhouse.table('converted_sum_builds')}
       WHERE organization_id = {organization_id:UUID} AND inputs = {inputs:String}
         AND target_currency = {target:String} AND conversion_policy = {policy:String}
         AND built_at > now64(6, 'UTC') - toIntervalSecond({max_age:UInt32})
       ORDER BY built_at DESC
       LIMIT 1`,
      { organization_id: key.organizationId, inputs: key.inputs, target: key.target, policy: key.policy, max_age: maxAgeSeconds },
      { organizationId: key.organizationId },
    );
    return row ? { buildId: row.build_id, currencies: row.converted_currencies, ageSeconds: Number(row.age_seconds) } : undefined;
  }

  /**
   * Writes the organisation's converted sums of `months` (their first days) under `buildId`, a month per statement
   * (readers see them only once registered). Rows written.
   */
  async write(organizationId: string, buildId: string, conversion: CurrencyConversion, months: string[]): Promise<number> {
    const target = this.clickhouse.table('converted_cost_sums');
    for (const month of months) {
      const rows = buildConvertedSumsSelect(this.clickhouse.table('cost_line_items'), organizationId, buildId, conversion, month);
      await this.clickhouse.insertSelect(`INSERT INTO ${target} (${CONVERTED_SUM_COLUMNS.join(', ')})\n${rows.sql}`, rows.params, {
        max_threads: 1,
      });
    }
    const [row] = await this.clickhouse.query<{ rows: string }>(
      `SELECT toString(count()) AS rows FROM ${target} WHERE organization_id = {organization_id:UUID} AND build_id = {build_id:UUID}`,
      { organization_id: organizationId, build_id: buildId },
    );
    return Number(row?.rows ?? 0);
  }

  async register(key: BuildKey, build: Pick<RegisteredBuild, 'buildId' | 'currencies'>, rowCount: number): Promise<void> {
    await this.clickhouse.insert('converted_sum_builds', [
      {
        organization_id: key.organizationId,
        inputs: key.inputs,
        target_currency: key.target,
        conversion_policy: key.policy,
        build_id: build.buildId,
        converted_currencies: build.currencies,
        row_count: rowCount,
        built_at: clickhouseTimestamp(new Date()),
      },
    ]);
  }
}
