import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/**
 * A value that changes whenever the cost data may have changed, for cache keys.
 *
 * - Writes by this process (ClickhouseService inserts and commands) change it at once.
 * - Writes by anyone else (an import from the CLI, another tool) change the set of active parts of
 *   cost_line_items: every INSERT, REPLACE PARTITION, DROP, mutation or merge creates or retires a
 *   part. A digest of the part names is re-read at most every RESULT_CACHE_VERSION_CHECK_MS, which
 *   bounds how long an answer older than such a write can be served.
 */
@Injectable()
export class CostDataVersion {
  private partsDigest = '';
  private checkedAt = Number.NEGATIVE_INFINITY;
  private pending?: Promise<void>;

  constructor(
    private readonly clickhouse: ClickhouseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async current(): Promise<string> {
    // Read before the parts: a write finishing meanwhile makes the next request's version differ.
    const localWrites = this.clickhouse.writeCount;
    if (Date.now() - this.checkedAt >= this.config.resultCache.versionCheckMs) {
      this.pending ??= this.readPartsDigest().finally(() => (this.pending = undefined));
      await this.pending;
    }
    return `${this.partsDigest}/${localWrites}`;
  }

  private async readPartsDigest(): Promise<void> {
    const startedAt = Date.now();
    const parts = this.clickhouse.cluster
      ? `clusterAllReplicas('${this.clickhouse.cluster}', system.parts)` // a validated identifier
      : 'system.parts';
    const [row] = await this.clickhouse.query<{ digest: string }>(
      `SELECT concat(toString(groupBitXor(cityHash64(name))), '-', toString(count())) AS digest
       FROM ${parts}
       WHERE database = {database:String} AND table = 'cost_line_items' AND active`,
      { database: this.clickhouse.database },
    );
    this.partsDigest = row?.digest ?? '';
    this.checkedAt = startedAt;
  }
}
