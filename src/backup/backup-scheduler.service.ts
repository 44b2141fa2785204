import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RedisLease } from '../infrastructure/redis/redis-lease';
import { REDIS } from '../infrastructure/redis/redis.module';
import { dueBackup, expiredBackups } from './backup-schedule';
import { BackupService } from './backup.service';

/** How often the scheduler looks whether a backup is due (and renews its lease while one runs). */
const TICK_MS = 30_000;
/** A crashed scheduler's lease is taken over after this long. */
const LEASE_TTL_MS = 2 * TICK_MS + 10_000;

/**
 * Scheduled backups (BACKUP_INTERVAL_MINUTES, in processes that run the worker: INGEST_WORKER, `npm run worker`): when
 * the newest complete backup is older than the interval, one instance (a Redis lease) takes one, incremental on it or
 * full every FULL_EVERY-th, and then deletes what BACKUP_KEEP no longer keeps (backup-schedule.ts).
 */
@Injectable()
export class BackupSchedulerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BackupScheduler');
  private readonly lease: RedisLease;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly backups: BackupService,
    @Inject(REDIS) redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.lease = new RedisLease(redis, 'cost-insights:backup-scheduler', LEASE_TTL_MS);
  }

  onApplicationBootstrap(): void {
    if (!this.config.ingestSources.worker || this.config.backup.intervalMinutes === 0) return;
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
    void this.tick();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
    await this.lease.release().catch(() => undefined);
  }

  private async tick(): Promise<void> {
    const held = await this.lease.acquire().catch(() => false); // renewed at every tick while a backup runs
    if (!held || this.running) return;
    const due = dueBackup(await this.backups.list(), this.backups.database, Date.now(), this.config.backup.intervalMinutes);
    if (!due) return;
    this.running = this.run(due.incremental).finally(() => (this.running = undefined));
  }

  private async run(incremental: boolean): Promise<void> {
    try {
      const manifest = await this.backups.create({ incremental }, (message) => this.logger.log(message));
      this.logger.log(`Scheduled backup ${manifest.name} complete${manifest.base ? ` (incremental on ${manifest.base})` : ''}`);
      for (const name of expiredBackups(await this.backups.list(), this.backups.database, this.config.backup.keep)) {
        await this.backups.location.remove(name);
        this.logger.log(`Deleted backup ${name} (BACKUP_KEEP=${this.config.backup.keep})`);
      }
    } catch (error) {
      this.logger.error(`Scheduled backup failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
