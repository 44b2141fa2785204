import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { clickhouseTimestamp } from '../../common/dates/clickhouse-time';
import { ClickhouseService } from '../clickhouse/clickhouse.service';

/** A secret is read again after this long: a store restored meanwhile brings its own back (backups carry the table). */
const REREAD_AFTER_MS = 5 * 60_000;

/**
 * Random keys of this installation, made once at first use and kept in the store (migration 0029). In the store rather
 * than an operator setting: every replica of the API behind a load balancer reads the same key, it outlives restarts,
 * a backup carries it and a restore brings it back, and no operator can forget or mistype it on one replica. The
 * first use stores a random candidate, on a server with a deduplication token of its name: ClickHouse keeps the first
 * block of a token and drops the later ones (a plain MergeTree's window), so two replicas racing store one secret; on a
 * cluster every racer's candidate is kept on every replica. Every reader takes the oldest row, so all agree once the
 * racers' rows are stored (a racer that read before another's older row arrived keeps its answer until it reads
 * again, REREAD_AFTER_MS). Never returned by an endpoint nor logged: callers derive values from it.
 */
@Injectable()
export class InstallationSecrets {
  private readonly cached = new Map<string, { secret: Promise<Buffer>; readAt: number }>();

  constructor(private readonly clickhouse: ClickhouseService) {}

  /** The secret `name` (32 bytes), created at its first use. */
  secret(name: string): Promise<Buffer> {
    const known = this.cached.get(name);
    if (known && Date.now() - known.readAt < REREAD_AFTER_MS) return known.secret;
    const secret = this.readOrCreate(name);
    this.cached.set(name, { secret, readAt: Date.now() });
    // A failed read is not kept: the next use tries again.
    secret.catch(() => {
      if (this.cached.get(name)?.secret === secret) this.cached.delete(name);
    });
    return secret;
  }

  private async readOrCreate(name: string): Promise<Buffer> {
    const stored = await this.read(name);
    if (stored) return stored;
    const candidate = { name, secret: randomBytes(32).toString('hex'), created_at: clickhouseTimestamp(new Date()) };
    // Embedded, one process holds the store (its in-process uses share one promise) and its session would keep the
    // setting. On a cluster whose Distributed table writes each replica itself, each replica would keep whichever
    // racer's row reached it first under the token, and replicas would disagree for good: there every racer's row is
    // kept on every replica and readers agree on the oldest.
    const deduplicate = !this.clickhouse.embedded && !this.clickhouse.cluster;
    await this.clickhouse.insert(
      'installation_secrets',
      [candidate],
      deduplicate ? { insert_deduplication_token: `installation-secret:${name}` } : {},
    );
    const created = await this.read(name);
    if (!created) throw new Error(`The installation secret ${name} was written but cannot be read back`);
    return created;
  }

  private async read(name: string): Promise<Buffer | undefined> {
    const [row] = await this.clickhouse.query<{ secret: string }>(
      `SELECT secret FROM ${this.clickhouse.table('installation_secrets')} WHERE name = {name:String} ORDER BY created_at, secret LIMIT 1`,
      { name },
    );
    return row ? Buffer.from(row.secret, 'hex') : undefined;
  }
}
