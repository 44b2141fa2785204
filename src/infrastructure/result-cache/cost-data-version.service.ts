import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/**
 * A value that changes whenever the cost data may have changed, for cache keys.
 *
 * - Writes by this process (ClickhouseService inserts and commands) change it at once.
 * - Writes by anyone else (an import from the CLI, another tool) change the set of active parts of
 *   cost_line_items: every INSERT, REPLACE PARTITION, DROP, mutation or merge creates or retires a
 *   part. A digest of the part names is re-read once it is RESULT_CACHE_VERSION_CHECK_MS old.
 *
 * The re-read is off the request path: up to twice that age, a request goes on with the digest it has
 * while the next one is read in the background. An older digest is always a safe key (it names a state
 * no later than the data the answer is then computed from); it only lets an answer older than a write
 * be served a little longer: in all, at most twice RESULT_CACHE_VERSION_CHECK_MS. Past that (an idle
 * instance, or ClickHouse unreachable), the request waits for the digest, as the first one does.
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
    const age = Date.now() - this.checkedAt;
    const { versionCheckMs } = this.config.resultCache;
    if (age >= versionCheckMs) {
      this.pending ??= this.readPartsDigest().finally(() => (this.pending = undefined));
      if (age >= 2 * versionCheckMs) await this.pending;
      // A background read that fails leaves the digest as it was; a later request retries it (and, once the
      // digest is too old to go on with, reports the failure).
      else this.pending.catch(() => undefined);
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
