import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { messageOf } from '../common/errors/message-of';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CostDataVersion } from '../store/data-version/cost-data-version.service';
import { RedisLease } from '../infrastructure/redis/redis-lease';
import { REDIS } from '../infrastructure/redis/redis.module';
import { BudgetAlertsService } from './budget-alerts.service';
import { BudgetsRepository } from '../store/repositories/budgets.repository';
import { BudgetWebhooksService } from './budget-webhooks.service';

/** How often the worker looks for imports, budget changes and due deliveries. */
const TICK_MS = 5_000;
/** A crashed evaluator's lease is taken over after this long. */
const LEASE_TTL_MS = 60_000;

/**
 * Budget alerts on schedule (in processes that run the worker: INGEST_WORKER, `npm run worker`), one instance at a time
 * (a Redis lease): an organisation's budgets are evaluated when its cost data or its budgets changed, and at least
 * every BUDGET_EVALUATION_MINUTES; due webhook deliveries are made beside it, so a slow receiver delays no evaluation.
 */
@Injectable()
export class BudgetSchedulerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BudgetScheduler');
  private readonly lease: RedisLease;
  /** Per organisation, what it was last evaluated at: its data version and budget versions, and when. */
  private readonly evaluated = new Map<string, { key: string; at: number }>();
  private timer?: NodeJS.Timeout;
  private evaluating?: Promise<void>;
  private delivering?: Promise<unknown>;

  constructor(
    private readonly repository: BudgetsRepository,
    private readonly alerts: BudgetAlertsService,
    private readonly webhooks: BudgetWebhooksService,
    private readonly versions: CostDataVersion,
    @Inject(REDIS) redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.lease = new RedisLease(redis, 'cost-insights:budget-evaluator', LEASE_TTL_MS);
  }

  onApplicationBootstrap(): void {
    if (!this.config.ingestSources.worker) return;
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.evaluating?.catch(() => undefined);
    await this.delivering?.catch(() => undefined);
    await this.lease.release().catch(() => undefined);
  }

  private async tick(): Promise<void> {
    const held = await this.lease.acquire().catch(() => false);
    if (!held) return;
    this.delivering ??= this.webhooks
      .deliverDue()
      .catch((error: unknown) => this.logger.error(`Webhook deliveries failed: ${messageOf(error)}`))
      .finally(() => (this.delivering = undefined));
    this.evaluating ??= this.evaluateChanged()
      .catch((error: unknown) => this.logger.error(`Budget evaluation failed: ${messageOf(error)}`))
      .finally(() => (this.evaluating = undefined));
  }

  /** Evaluates each organisation whose data or budgets changed since its last evaluation, or whose last one is old. */
  private async evaluateChanged(): Promise<void> {
    const interval = this.config.budgets.evaluationMinutes * 60_000;
    for (const { organizationId, versions } of await this.repository.organizations()) {
      const key = `${await this.versions.current(organizationId)}|${versions}`;
      const last = this.evaluated.get(organizationId);
      if (last && last.key === key && Date.now() - last.at < interval) continue;
      try {
        await this.alerts.evaluate(organizationId);
      } catch (error) {
        this.logger.warn(`Budgets of organisation ${organizationId} not evaluated: ${messageOf(error)}`);
      }
      // A failure (a missing exchange rate) is tried again with the next change or interval, not at every tick.
      this.evaluated.set(organizationId, { key, at: Date.now() });
    }
  }
}
