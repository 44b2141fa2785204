import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { REDIS } from '../infrastructure/redis/redis.module';
import { metrics } from '../observability/prometheus-metrics';
import { CheckSchedule } from './check-schedule';
import { RedisLease } from '../infrastructure/redis/redis-lease';
import { SourceCheckService } from './source-check.service';
import { SourcesRepository } from '../store/repositories/sources.repository';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { messageOf } from '../common/errors/message-of';
import { PublishProtocol } from '../store/publish/publish-protocol';

/** The worker's lease: a crashed holder's is taken over by another instance within this long. */
export const WORKER_LEASE_TTL_MS = 30_000;
/** How often the worker renews its lease (or tries to take it) and looks whether a check is due: at most this, or the poll. */
const TICK_MS = 5_000;

/**
 * Checks every organisation's data sources every INGEST_POLL_SECONDS (an unreachable one less often: CheckSchedule).
 * Runs in each API process with INGEST_WORKER=true (and in `npm run worker`), but only the holder of one Redis lease
 * checks: exactly one active across all instances, another taking over within WORKER_LEASE_TTL_MS of its holder's
 * crash. Resumable: what was imported is recorded per delivery, so a restarted worker goes on where the last one
 * stopped. Each round ends by building the projections of published partitions that lack them (projection-completion.ts).
 */
@Injectable()
export class IngestWorkerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DataSourceWorker');
  private readonly lease: RedisLease;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private nextCheckMs = 0;
  private holding = false;
  private readonly schedule: CheckSchedule;

  constructor(
    private readonly sources: SourcesRepository,
    private readonly checker: SourceCheckService,
    private readonly clickhouse: ClickhouseService,
    @Inject(REDIS) redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.lease = new RedisLease(redis, 'cost-insights:ingest-worker', WORKER_LEASE_TTL_MS);
    this.schedule = new CheckSchedule(config.ingestSources.pollSeconds * 1000);
  }

  onApplicationBootstrap(): void {
    if (!this.config.ingestSources.worker) return;
    this.timer = setInterval(() => void this.tick(), Math.min(TICK_MS, this.config.ingestSources.pollSeconds * 1000));
    this.timer.unref();
    void this.tick();
  }

  /** Hands the lease over at once (before the Redis connection closes), after the check in progress. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
    if (this.holding) await this.lease.release().catch(() => undefined);
    metrics.sourceWorkerActive.set(0);
  }

  /** Whether this process holds the worker's lease now (the status page and tests ask). */
  get active(): boolean {
    return this.holding;
  }

  private async tick(): Promise<void> {
    try {
      const held = await this.lease.acquire();
      if (held !== this.holding)
        this.logger.log(held ? 'this instance checks the data sources' : 'another instance checks the data sources');
      this.holding = held;
    } catch {
      this.holding = false; // Redis unreachable: nobody can prove to hold the lease, so nobody checks.
    }
    metrics.sourceWorkerActive.set(this.holding ? 1 : 0);
    if (!this.holding || this.running || Date.now() < this.nextCheckMs) return;
    this.nextCheckMs = Date.now() + this.config.ingestSources.pollSeconds * 1000;
    this.running = this.checkAll().finally(() => (this.running = undefined));
  }

  private async checkAll(): Promise<void> {
    const roundMs = Date.now();
    for (const source of await this.sources.all().catch(() => [])) {
      if (!this.timer || !(await this.lease.renew().catch(() => false))) return;
      if (!this.schedule.isDue(source.source_id, roundMs)) continue;
      const retryAfterMs = this.schedule.retryAfterFailureMs(source.source_id);
      const result = await this.checker.check(source, { retryAfterMs }).catch((error: unknown) => {
        this.logger.warn(`source ${source.source_id}: check failed: ${messageOf(error)}`);
      });
      if (result && !result.busy)
        this.schedule.checked(
          source.source_id,
          result.checks.some((check) => check.outcome === 'unreachable'),
          roundMs,
        );
    }
    await this.completeProjections();
  }

  /** Builds the projections an import left unbuilt (its process died after publishing, or building them failed). */
  private async completeProjections(): Promise<void> {
    if (!this.timer) return;
    try {
      const rewritten = await new PublishProtocol(this.clickhouse).completeProjections((message) => this.logger.log(message));
      if (rewritten > 0) this.logger.log(`built the projections of ${rewritten} published partition(s) that lacked them`);
    } catch (error) {
      this.logger.warn(`building the projections of published partitions failed: ${messageOf(error)}`);
    }
  }
}
