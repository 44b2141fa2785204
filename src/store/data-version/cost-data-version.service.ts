import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/** The table every cached answer is computed from. */
const COST_TABLE = 'cost_line_items';
/**
 * Every table an answer depends on, each partitioned by organisation: the cost rows, and the exchange rates and
 * currency settings that convert them (a rate loaded or a reporting currency changed moves the answers too).
 */
const ANSWER_TABLES = [COST_TABLE, 'exchange_rates', 'organization_settings'];
/**
 * What cached answers are keyed by: the answer tables, the anomaly feedback that shapes anomaly answers, the
 * activated tag keys (which change no answer, only where it is read from: tag-keys/activated-keys.service.ts), the
 * rule-defined cost categories (a saved version changes the answers naming its category; converted sums hold no
 * category, so they are not keyed by it) and the business metrics that unit-cost answers divide by (partitioned by
 * month, not organisation: a load moves every organisation's version, and loads are rare) and the contract commitments
 * that contract burn-downs are measured against.
 */
const CACHE_KEY_TABLES = [
  ...ANSWER_TABLES,
  'anomaly_feedback',
  'tag_key_activations',
  'cost_category_versions',
  'business_metrics',
  'business_metric_values',
  'business_metric_loads',
  'contract_commitments',
  'contract_commitment_loads',
];

/**
 * A value that changes whenever one organisation's cost data may have changed, for cache keys: answers
 * depend on that organisation's cost rows, exchange rates and currency settings (ANSWER_TABLES) — anomaly answers
 * on its anomaly feedback too (CACHE_KEY_TABLES) — and nothing else, so a write for another organisation, or to another table (a shared filter, an API key), leaves them cached.
 *
 * - Writes by this process: an insert of the organisation's cost rows, or any command (DDL, partition
 *   swaps and mutations may touch any table), change it at once.
 * - Writes by anyone else (an import from the CLI, another tool) change the set of active parts of the
 *   organisation's partitions (the partition key starts with organization_id): every INSERT,
 *   REPLACE PARTITION, DROP, mutation or merge creates or retires a part. A digest of the part names per
 *   organisation is re-read once it is RESULT_CACHE_VERSION_CHECK_MS old.
 *
 * The re-read is off the request path: up to twice that age, a request goes on with the digests it has
 * while the next ones are read in the background. An older digest is always a safe key (it names a state
 * no later than the data the answer is then computed from); it only lets an answer older than a write
 * be served a little longer: in all, at most twice RESULT_CACHE_VERSION_CHECK_MS. Past that (an idle
 * instance, or ClickHouse unreachable), the request waits for the digests, as the first one does.
 */
/** The answer tables and the rule-defined cost categories: what a budget's sums are read from. */
const CATEGORISED_ANSWER_TABLES = [...ANSWER_TABLES, 'cost_category_versions'];
/** Organisations whose recent inputs digest an instance keeps. */
const REMEMBERED_ORGANIZATIONS = 10_000;

@Injectable()
export class CostDataVersion {
  private partsDigests = new Map<string, string>();
  private readonly recentInputs = new Map<string, { digest: string; writes: number; at: number }>();
  private checkedAt = Number.NEGATIVE_INFINITY;
  private pending?: Promise<void>;

  constructor(
    private readonly clickhouse: ClickhouseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async current(organizationId: string): Promise<string> {
    // Read before the parts: a write finishing meanwhile makes the next request's version differ.
    const localWrites = CACHE_KEY_TABLES.reduce((count, table) => count + this.clickhouse.writeCount(table, organizationId), 0);
    const age = Date.now() - this.checkedAt;
    const { versionCheckMs } = this.config.resultCache;
    if (age >= versionCheckMs) {
      this.pending ??= this.readPartsDigests().finally(() => (this.pending = undefined));
      if (age >= 2 * versionCheckMs) await this.pending;
      // A background read that fails leaves the digests as they were; a later request retries it (and, once
      // they are too old to go on with, reports the failure).
      else this.pending.catch(() => undefined);
    }
    // Parts whose partition does not start with an organisation (a future partition key) count for everyone.
    const shared = this.partsDigests.get(NO_ORGANIZATION) ?? '';
    return `${this.partsDigests.get(organizationId.toLowerCase()) ?? ''}/${shared}/${localWrites}`;
  }

  /**
   * The organisation's stored cost data, identified now, in one small statement on the organisation's turn:
   * what a paging cursor is pinned to. Unlike current() it is never older than the call and holds no
   * per-process count, so every instance reads the same value for the same data; and it ignores merges,
   * which rewrite parts without changing a row, so the background merges that follow an import do not
   * end every paging in progress.
   *
   * Per partition: the lowest and highest block number of its active parts, its rows, and its highest
   * mutation version. A merge joins parts into one covering the same block range and rows; an insert,
   * partition swap or attach adds a block with a new, higher number (block numbers count per table, so a
   * partition's blocks are not contiguous: the range, not a count of blocks, is what a merge keeps); a drop
   * removes the partition; a mutation rewrites parts under a higher version. Equal before a statement and
   * after a later one, it proves both saw the same rows. (Block numbers restart from the highest existing one
   * when the server restarts, so a partition dropped and rebuilt across a restart with exactly the same
   * range and row count would read as unchanged.)
   */
  async readNow(organizationId: string): Promise<string> {
    return this.readTablesNow(organizationId, [COST_TABLE]);
  }

  /**
   * As readNow, over everything an answer depends on (ANSWER_TABLES: the cost rows, exchange rates and currency
   * settings): what a build of converted sums is keyed by. A merge that collapses replaced rates or settings
   * (ReplacingMergeTree) changes it, which only costs a rebuild.
   */
  async readAnswerInputsNow(organizationId: string): Promise<string> {
    return this.readTablesNow(organizationId, ANSWER_TABLES);
  }

  /**
   * As readAnswerInputsNow, with the rule-defined cost categories (a saved version changes what a category selects):
   * what stored budget sums are keyed by.
   */
  async readCategorisedAnswerInputsNow(organizationId: string): Promise<string> {
    return this.readTablesNow(organizationId, CATEGORISED_ANSWER_TABLES);
  }

  /**
   * readCategorisedAnswerInputsNow, read again once RESULT_CACHE_VERSION_CHECK_MS old, or at once after this
   * process wrote one of those tables for the organisation; so, as cached answers, at most that old for another's write.
   */
  async recentCategorisedAnswerInputs(organizationId: string): Promise<string> {
    const writes = CATEGORISED_ANSWER_TABLES.reduce((count, table) => count + this.clickhouse.writeCount(table, organizationId), 0);
    const id = organizationId.toLowerCase();
    const known = this.recentInputs.get(id);
    if (known && known.writes === writes && Date.now() - known.at < this.config.resultCache.versionCheckMs) return known.digest;
    const at = Date.now();
    const digest = await this.readTablesNow(organizationId, CATEGORISED_ANSWER_TABLES);
    this.recentInputs.delete(id); // re-inserted last: the oldest entry is the first to go
    this.recentInputs.set(id, { digest, writes, at });
    if (this.recentInputs.size > REMEMBERED_ORGANIZATIONS) this.recentInputs.delete(this.recentInputs.keys().next().value as string);
    return digest;
  }

  private async readTablesNow(organizationId: string, tables: string[]): Promise<string> {
    const rows = await this.clickhouse.query<{ organization_id: string; digest: string }>(
      `SELECT organization_id, toString(sum(partition_digest)) AS digest
       FROM (
         SELECT toString(toUUIDOrZero(extract(any(partition), '${UUID_PATTERN}'))) AS organization_id,
                cityHash64(table,
                           partition_id,
                           min(min_block_number),
                           max(max_block_number),
                           max(if(data_version > max_block_number, toInt64(data_version), 0)),
                           sum(rows)) AS partition_digest
         FROM ${this.partsTable()}
         WHERE database = {database:String} AND table IN {tables:Array(String)} AND active
           AND toUUIDOrZero(extract(partition, '${UUID_PATTERN}')) IN ({organization_id:UUID}, {no_organization:UUID})
         GROUP BY table, partition_id
       )
       GROUP BY organization_id
       ${this.partsSettings()}`,
      { database: this.clickhouse.database, tables, organization_id: organizationId, no_organization: NO_ORGANIZATION },
      { organizationId },
    );
    const digests = new Map(rows.map((row) => [row.organization_id, row.digest]));
    return `${digests.get(organizationId.toLowerCase()) ?? ''}/${digests.get(NO_ORGANIZATION) ?? ''}`;
  }

  private async readPartsDigests(): Promise<void> {
    const startedAt = Date.now();
    // The organisation is the first UUID of `partition`: `('<organization_id>','<integration_id>','<billing_period>')`
    // for the cost rows, `'<organization_id>'` for the tables partitioned by it alone.
    const rows = await this.clickhouse.query<{ organization_id: string; digest: string }>(
      `SELECT toString(toUUIDOrZero(extract(partition, '${UUID_PATTERN}'))) AS organization_id,
              concat(toString(groupBitXor(cityHash64(table, name))), '-', toString(count())) AS digest
       FROM ${this.partsTable()}
       WHERE database = {database:String} AND table IN {tables:Array(String)} AND active
       GROUP BY organization_id
       ${this.partsSettings()}`,
      { database: this.clickhouse.database, tables: CACHE_KEY_TABLES },
    );
    this.partsDigests = new Map(rows.map((row) => [row.organization_id, row.digest]));
    this.checkedAt = startedAt;
  }

  /** Every node's parts on a cluster. */
  private partsTable(): string {
    const { cluster } = this.clickhouse;
    return cluster ? `clusterAllReplicas('${cluster.name}', system.parts)` : 'system.parts'; // a validated identifier
  }

  /**
   * A node that does not answer is left out (its parts then count as changed, which only misses the cache):
   * answering questions must not wait for a node whose twin serves its shard.
   */
  private partsSettings(): string {
    return this.clickhouse.cluster ? 'SETTINGS skip_unavailable_shards = 1' : '';
  }
}

const NO_ORGANIZATION = '00000000-0000-0000-0000-000000000000';
const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
